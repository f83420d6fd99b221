import { ArrowRight, Gift, LogOut, MailWarning, Package, Settings, ShoppingBag, type LucideIcon } from 'lucide-react';
import { useSignOut } from '../../session/session';
import { StoreLink } from '../ui/StoreLink';
import { useDocumentTitle } from '../ui/use-document-title';
import { ResendConfirmation } from './ResendConfirmation';
import { SignedInOnly } from './SignedInOnly';
import { primaryButton, secondaryButton } from './ui';

export function DashboardPage() {
  useDocumentTitle('My Account');
  const signOut = useSignOut();
  return (
    <SignedInOnly>
      {(me) => (
        <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
          <div className="flex flex-col gap-6 sm:flex-row sm:items-end sm:justify-between">
            <div className="min-w-0">
              <h1 className="font-display text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">My Account</h1>
              <p className="mt-2 text-stone-600">
                Signed in as{' '}
                <strong className="font-semibold wrap-anywhere text-stone-900" data-testid="account-email">
                  {me.email}
                </strong>
              </p>
            </div>
            <button type="button" className={`${secondaryButton} self-start sm:self-auto`} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              <LogOut className="size-4" aria-hidden="true" />
              {signOut.isPending ? 'Signing out...' : 'Sign Out'}
            </button>
          </div>

          {!me.emailConfirmed && (
            <div className="mt-8 flex flex-col gap-4 rounded-2xl border border-amber-200 bg-amber-50 p-5 sm:flex-row sm:items-center sm:justify-between" data-testid="unconfirmed-notice">
              <div className="flex gap-3">
                <MailWarning className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
                <div>
                  <h2 className="font-semibold text-amber-950">Please confirm your email address</h2>
                  <p className="mt-1 text-sm text-amber-900">We sent a confirmation link to {me.email}. Open it to confirm this address is yours.</p>
                </div>
              </div>
              <ResendConfirmation email={me.email} className="shrink-0" />
            </div>
          )}

          <ul className="mt-10 grid gap-4 sm:grid-cols-3 sm:gap-6">
            <AccountCard icon={Package} title="Orders" text="View and track your orders." action="See recent orders" href="#recent-orders" />
            <AccountCard
              icon={Gift}
              title="Subscriptions"
              text="Get a new exclusive tee every month or quarter."
              action="Explore the club"
              href="/subscriptions"
            />
            <AccountCard icon={Settings} title="Settings" text="Update your details, addresses and password." action="Manage settings" href="/settings" />
          </ul>

          <section id="recent-orders" aria-labelledby="recent-orders-heading" className="mt-10 scroll-mt-24 rounded-2xl border border-stone-200 bg-white">
            <h2 id="recent-orders-heading" className="font-display border-b border-stone-200 px-5 py-4 text-lg font-bold text-stone-950 sm:px-6">
              Recent Orders
            </h2>
            <div className="flex flex-col items-center px-6 py-14 text-center">
              <span className="inline-flex size-12 items-center justify-center rounded-full bg-stone-100 text-stone-500">
                <ShoppingBag className="size-6" aria-hidden="true" />
              </span>
              <p className="mt-4 font-semibold text-stone-900">No orders yet</p>
              <p className="mt-1 text-sm text-stone-600">When you place an order, it will show up here.</p>
              <StoreLink to="/shop" className={`${primaryButton} mt-6`}>
                Start Shopping
              </StoreLink>
            </div>
          </section>
        </div>
      )}
    </SignedInOnly>
  );
}

// A compact row on phones (icon beside the text), a tall card from the small breakpoint up.
const cardClass =
  'group grid h-full w-full grid-cols-[auto_1fr] gap-x-4 rounded-2xl border border-stone-200 bg-white p-5 transition hover:border-stone-300 hover:shadow-md sm:flex sm:flex-col sm:p-6';

function AccountCard({ icon: Icon, title, text, action, href }: { icon: LucideIcon; title: string; text: string; action: string; href: string }) {
  const content = (
    <>
      <span className="row-span-3 inline-flex size-11 items-center justify-center rounded-xl bg-accent-50 text-accent-700">
        <Icon className="size-5.5" aria-hidden="true" />
      </span>
      <h2 className="font-display text-lg font-bold text-stone-950 sm:mt-4">{title}</h2>
      <p className="mt-1 flex-1 text-sm text-stone-600">{text}</p>
      <span className="mt-3 inline-flex items-center gap-1.5 text-sm font-semibold text-accent-700 group-hover:text-accent-800 sm:mt-4">
        {action}
        <ArrowRight className="size-4 transition group-hover:translate-x-0.5" aria-hidden="true" />
      </span>
    </>
  );
  return (
    <li className="flex" data-testid="account-card">
      {/* The Orders card points at the panel on this page, so it is a plain in-page anchor. */}
      {href.startsWith('#') ? (
        <a href={href} className={cardClass}>
          {content}
        </a>
      ) : (
        <StoreLink to={href} className={cardClass}>
          {content}
        </StoreLink>
      )}
    </li>
  );
}
