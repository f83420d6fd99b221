import { Link } from '@tanstack/react-router';
import { ChevronDown, CircleHelp } from 'lucide-react';
import type { ReactNode } from 'react';
import { SIZES } from '../../../shared/constants';
import { HelpLayout, HelpSection, helpLinkClass } from './HelpLayout';
import { CLAIM_WINDOW_DAYS } from './policy';

interface Question {
  q: string;
  a: ReactNode;
}

const SMALLEST_SIZE = SIZES[0];
const LARGEST_SIZE = SIZES[SIZES.length - 1];

const GROUPS: { id: string; title: string; questions: Question[] }[] = [
  {
    id: 'orders',
    title: 'Orders & Shipping',
    questions: [
      {
        q: 'What does print-on-demand mean?',
        a: 'Nothing sits in a warehouse: each tee is printed after you order it. That lets us offer lots of designs without waste, and every shirt is made fresh for you.',
      },
      {
        q: 'How long will my order take?',
        a: (
          <>
            Printing usually takes a few business days, then your order ships with tracking. See{' '}
            <Link to="/shipping" className={helpLinkClass}>
              Shipping Info
            </Link>{' '}
            for the details.
          </>
        ),
      },
      { q: 'How much is shipping?', a: 'Nothing. Shipping is free on every order, with no minimum.' },
      {
        q: 'Can I change or cancel my order?',
        a: (
          <>
            <Link to="/contact" className={helpLinkClass}>
              Contact us
            </Link>{' '}
            as soon as possible. We can change or cancel an order until it goes to print; after that it is made just for you.
          </>
        ),
      },
      {
        q: 'Do I need an account to order?',
        a: 'You can browse and fill your cart without one. To check out, sign in or create a free account, which also keeps your shipping address for next time.',
      },
    ],
  },
  {
    id: 'sizing',
    title: 'Sizing & Care',
    questions: [
      {
        q: 'What sizes do you offer?',
        a: `Our tees come in sizes ${SMALLEST_SIZE} to ${LARGEST_SIZE}. Not every design is printed in every size, so each product page lists the sizes available for it.`,
      },
      {
        q: 'How do I pick the right size?',
        a: 'Compare with a tee you already own that fits well. Between sizes? Size up for a more relaxed fit. If it still does not fit, we offer one free size exchange.',
      },
      {
        q: 'How do I care for my tee?',
        a: (
          <>
            Wash inside out in cold water, skip the bleach, and tumble dry low or hang dry. Our{' '}
            <Link to="/returns" hash="care" className={helpLinkClass}>
              care guide
            </Link>{' '}
            has the full list.
          </>
        ),
      },
      {
        q: 'What if my tee arrives misprinted or damaged?',
        a: (
          <>
            We'll replace it for free or refund it. Tell us within {CLAIM_WINDOW_DAYS} days of delivery; see{' '}
            <Link to="/returns" className={helpLinkClass}>
              Returns & Exchanges
            </Link>
            .
          </>
        ),
      },
    ],
  },
  {
    id: 'club',
    title: 'Subscription Club',
    questions: [
      {
        q: 'How does the subscription club work?',
        a: (
          <>
            Choose a monthly or quarterly plan and the themes you love, and we'll send you members-only designs on that schedule, with free
            shipping.{' '}
            <Link to="/subscriptions" className={helpLinkClass}>
              Compare the plans
            </Link>
            .
          </>
        ),
      },
      {
        q: 'How do I join?',
        a: (
          <>
            Pick a plan on the{' '}
            <Link to="/subscriptions" className={helpLinkClass}>
              club page
            </Link>{' '}
            and press Join: choose your shirt size, the themes you like and where to ship. You can skip, pause or cancel from your
            membership page at any time.
          </>
        ),
      },
    ],
  },
];

export function FaqPage() {
  return (
    <HelpLayout
      title="Frequently Asked Questions"
      Icon={CircleHelp}
      lead="Quick answers about our tees, orders, shipping and the subscription club."
    >
      {GROUPS.map((group) => (
        <HelpSection key={group.id} id={group.id} title={group.title}>
          <div className="divide-y divide-stone-200 rounded-2xl border border-stone-200">
            {group.questions.map(({ q, a }) => (
              // <details> gives a native, keyboard-operable disclosure that screen readers announce as expandable.
              <details key={q} className="group" data-testid="faq-item">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-4 font-semibold text-stone-900 hover:bg-stone-50 [&::-webkit-details-marker]:hidden">
                  {q}
                  <ChevronDown className="size-5 shrink-0 text-stone-500 transition group-open:rotate-180" aria-hidden="true" />
                </summary>
                <div className="px-5 pb-5 text-stone-700">{a}</div>
              </details>
            ))}
          </div>
        </HelpSection>
      ))}
    </HelpLayout>
  );
}
