import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowRight, Check, Gift, Layers, Mail, Printer, Shirt, Truck } from 'lucide-react';
import { storeConfig } from '../../store-config';
import { useTRPC, type RouterOutputs } from '../../trpc';
import { StoreSection } from '../layout/StoreSection';
import { ButtonLink } from '../ui/Button';
import { useDocumentTitle } from '../ui/use-document-title';
import { PageIntro } from './PageIntro';
import { formatPlanPrice, isAllCategoriesPlan, planIntervalLabel } from './plan-format';

type Plan = RouterOutputs['subscriptions']['plans'][number];

const HOW_IT_WORKS = [
  { Icon: Layers, title: 'Pick your plan', text: 'Go monthly or quarterly, with one theme or every category we print.' },
  { Icon: Shirt, title: 'Tell us your size', text: 'Let us know your size and favorite themes, from motorcycles and cars to faith.' },
  { Icon: Printer, title: 'We print it fresh', text: 'Each club design is members-only and printed on demand, just for you.' },
  { Icon: Truck, title: 'Delivered free', text: 'Your tees ship to your door at no cost, every month or every quarter.' },
];

export function SubscriptionsPage() {
  useDocumentTitle('Subscription Club');
  return (
    <>
      <PageIntro tone="dark" eyebrow="Subscription Club" Icon={Gift} title={`The ${storeConfig.storeName} Tee Club`}>
        <p>
          Fresh, members-only designs printed for you and delivered to your door. Pick a plan and the themes you love, and let the tees come
          to you.
        </p>
      </PageIntro>
      <PlansSection />
      <HowItWorks />
      <SupportSection />
    </>
  );
}

function PlansSection() {
  const trpc = useTRPC();
  // A failed read shows the empty state (docs/PRODUCT.md § Messages: storefront data errors are not shown).
  const { data: plans = [], isPending } = useQuery(trpc.subscriptions.plans.queryOptions());
  return (
    <StoreSection labelledBy="plans-heading">
      <div className="max-w-2xl">
        <h2 id="plans-heading" className="font-display text-2xl font-extrabold tracking-tight text-stone-950 sm:text-3xl">
          Choose Your Plan
        </h2>
        <p className="mt-2 text-stone-600">Every plan includes free shipping and designs you won't find in the shop.</p>
      </div>
      {isPending ? (
        <div className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3" role="status">
          <span className="sr-only">Loading plans...</span>
          {[0, 1, 2].map((i) => (
            <PlanCardSkeleton key={i} />
          ))}
        </div>
      ) : plans.length === 0 ? (
        <div className="mt-10 rounded-2xl border border-dashed border-stone-300 bg-stone-50 px-6 py-12 text-center">
          <p className="font-semibold text-stone-900">No plans are open right now.</p>
          <p className="mt-2 text-stone-600">Check back soon, or send us a message and we'll tell you when the club opens.</p>
          <Link
            to="/contact"
            className="mt-4 inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-accent-700 hover:text-accent-800"
          >
            Contact Us
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
      ) : (
        <>
          <ul className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="plans">
            {plans.map((plan) => (
              <li key={plan.id} className="flex">
                <PlanCard plan={plan} />
              </li>
            ))}
          </ul>
          <p className="mt-8 text-center text-sm text-stone-600">Skip a shipment, pause or cancel at any time from your membership page.</p>
        </>
      )}
    </StoreSection>
  );
}

function PlanCard({ plan }: { plan: Plan }) {
  const popular = isAllCategoriesPlan(plan.category_limit);
  const headingId = `plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      data-testid="plan-card"
      className={`relative flex w-full flex-col rounded-2xl bg-white p-6 sm:p-8 ${
        popular ? 'shadow-lg ring-2 ring-accent-600' : 'shadow-sm ring-1 ring-stone-200'
      }`}
    >
      {popular && (
        <p className="absolute -top-3.5 left-6 inline-flex items-center rounded-full bg-accent-700 px-3 py-1 text-xs font-bold tracking-wide text-white uppercase shadow-sm sm:left-8">
          Most Popular
        </p>
      )}
      <h3 id={headingId} className="font-display text-xl font-bold text-stone-950">
        {plan.name}
      </h3>
      <p className="mt-4 flex items-baseline gap-1.5" data-testid="plan-price">
        <span className="font-display text-4xl font-extrabold tracking-tight text-stone-950">{formatPlanPrice(plan.price)}</span>{' '}
        <span className="text-base font-medium text-stone-500">/ {planIntervalLabel(plan.billing_interval)}</span>
      </p>
      {plan.description && <p className="mt-4 text-sm leading-6 text-stone-600">{plan.description}</p>}
      {plan.features.length > 0 && (
        <ul className="mt-6 space-y-3 border-t border-stone-200 pt-6 text-sm text-stone-700" aria-label={`${plan.name} features`}>
          {plan.features.map((feature) => (
            <li key={feature} className="flex gap-3">
              <Check className="mt-0.5 size-4 shrink-0 text-accent-600" aria-hidden="true" />
              {feature}
            </li>
          ))}
        </ul>
      )}
      {/* Signed out, the join page's guard sends the visitor to sign in and back. */}
      <div className="mt-auto pt-8">
        <ButtonLink
          to="/subscriptions/join/$planSlug"
          params={{ planSlug: plan.slug }}
          variant={popular ? 'accent' : 'primary'}
          size="xl"
          block
        >
          Join<span className="sr-only"> {plan.name}</span>
        </ButtonLink>
      </div>
    </article>
  );
}

function PlanCardSkeleton() {
  return (
    <div aria-hidden="true" className="flex animate-pulse flex-col rounded-2xl p-6 ring-1 ring-stone-200 sm:p-8">
      <div className="h-6 w-1/2 rounded bg-stone-200" />
      <div className="mt-3 h-4 w-full rounded bg-stone-200" />
      <div className="mt-2 h-4 w-4/5 rounded bg-stone-200" />
      <div className="mt-6 h-10 w-1/3 rounded bg-stone-200" />
      <div className="mt-6 space-y-3">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-4 w-3/4 rounded bg-stone-200" />
        ))}
      </div>
      <div className="mt-8 h-12 rounded-full bg-stone-200" />
    </div>
  );
}

function HowItWorks() {
  return (
    <StoreSection labelledBy="how-heading" band>
      <h2 id="how-heading" className="font-display text-2xl font-extrabold tracking-tight text-stone-950 sm:text-3xl">
        How It Works
      </h2>
      <p className="mt-2 text-stone-600">Four simple steps from sign-up to your doorstep.</p>
      <ol className="mt-10 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
        {HOW_IT_WORKS.map(({ Icon, title, text }, index) => (
          <li key={title} className="flex gap-4 lg:flex-col">
            <span className="relative inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-white text-accent-700 shadow-sm ring-1 ring-stone-200">
              <Icon className="size-6" aria-hidden="true" />
              <span className="absolute -top-1 -right-1 inline-flex size-5 items-center justify-center rounded-full bg-stone-900 text-[11px] font-bold text-white">
                {index + 1}
              </span>
            </span>
            <div>
              <h3 className="font-semibold text-stone-950">{title}</h3>
              <p className="mt-1 text-sm leading-6 text-stone-600">{text}</p>
            </div>
          </li>
        ))}
      </ol>
    </StoreSection>
  );
}

function SupportSection() {
  return (
    <StoreSection labelledBy="club-support-heading">
      <div className="flex flex-col items-start gap-6 rounded-3xl bg-stone-950 px-6 py-10 text-white sm:px-10 md:flex-row md:items-center md:justify-between">
        <div className="max-w-xl">
          <h2 id="club-support-heading" className="font-display text-2xl font-extrabold tracking-tight">
            Questions about the club?
          </h2>
          <p className="mt-2 text-stone-300">We're happy to help you pick the right plan, sizes and themes. Write to us any time.</p>
        </div>
        <a
          href={`mailto:${storeConfig.storeEmail}`}
          data-testid="club-support-email"
          className="inline-flex h-12 max-w-full shrink-0 items-center gap-2 rounded-full bg-white px-6 text-base font-semibold text-stone-900 transition hover:bg-accent-50"
        >
          <Mail className="size-5 shrink-0 text-accent-700" aria-hidden="true" />
          <span className="truncate">{storeConfig.storeEmail}</span>
        </a>
      </div>
    </StoreSection>
  );
}
