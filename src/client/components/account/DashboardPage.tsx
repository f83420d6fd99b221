import { Link, type LinkProps } from '@tanstack/react-router';
import { ArrowRight, Gift, LogOut, MailWarning, Package, Settings, type LucideIcon } from 'lucide-react';
import { useSignedInUser, useSignOut } from '../../session/session';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../trpc';
import { NoOrdersYet, OrderList } from '../orders/OrdersPage';
import { Button, textLinkClass } from '../ui/Button';
import { LoadingState } from '../ui/states';
import { useDocumentTitle } from '../ui/use-document-title';
import { ResendConfirmation } from './ResendConfirmation';

export function DashboardPage() {
  useDocumentTitle('My Account');
  const me = useSignedInUser();
  const signOut = useSignOut();
  return (
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
        <Button
          variant="secondary"
          size="lg"
          icon={LogOut}
          className="self-start sm:self-auto"
          onClick={() => signOut.mutate()}
          busy={signOut.isPending}
          busyLabel="Signing out..."
        >
          Sign Out
        </Button>
      </div>

      {!me.emailConfirmed && (
        <div
          className="mt-8 flex flex-col gap-4 rounded-2xl border border-amber-200 bg-amber-50 p-5 sm:flex-row sm:items-center sm:justify-between"
          data-testid="unconfirmed-notice"
        >
          <div className="flex gap-3">
            <MailWarning className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
            <div>
              <h2 className="font-semibold text-amber-950">Please confirm your email address</h2>
              <p className="mt-1 text-sm text-amber-900">
                We sent a confirmation link to {me.email}. Open it to confirm this address is yours.
              </p>
            </div>
          </div>
          <ResendConfirmation email={me.email} className="shrink-0" />
        </div>
      )}

      <ul className="mt-10 grid gap-4 sm:grid-cols-3 sm:gap-6">
        <AccountCard icon={Package} title="Orders" text="View and track your orders." action="See your orders" to="/orders" />
        <AccountCard
          icon={Gift}
          title="Subscriptions"
          text="Your tee club: next shipment, skip, pause or change."
          action="Manage subscription"
          to="/subscription"
        />
        <AccountCard
          icon={Settings}
          title="Settings"
          text="Update your details, addresses and password."
          action="Manage settings"
          to="/settings"
        />
      </ul>

      <RecentOrders />
    </div>
  );
}

interface AccountCardProps {
  icon: LucideIcon;
  title: string;
  text: string;
  action: string;
  to: LinkProps['to'];
}

/** A compact row on phones (icon beside the text), a tall card from the small breakpoint up. */
function AccountCard({ icon: Icon, title, text, action, to }: AccountCardProps) {
  return (
    <li className="flex" data-testid="account-card">
      <Link
        to={to}
        className="group grid h-full w-full grid-cols-[auto_1fr] gap-x-4 rounded-2xl border border-stone-200 bg-white p-5 transition hover:border-stone-300 hover:shadow-md sm:flex sm:flex-col sm:p-6"
      >
        <span className="row-span-3 inline-flex size-11 items-center justify-center rounded-xl bg-accent-50 text-accent-700">
          <Icon className="size-5.5" aria-hidden="true" />
        </span>
        <h2 className="font-display text-lg font-bold text-stone-950 sm:mt-4">{title}</h2>
        <p className="mt-1 flex-1 text-sm text-stone-600">{text}</p>
        <span className="mt-3 inline-flex items-center gap-1.5 text-sm font-semibold text-accent-700 group-hover:text-accent-800 sm:mt-4">
          {action}
          <ArrowRight className="size-4 transition group-hover:translate-x-0.5" aria-hidden="true" />
        </span>
      </Link>
    </li>
  );
}

/** The last three orders, or the spec's "no orders yet" with Start Shopping. */
function RecentOrders() {
  const trpc = useTRPC();
  const recent = useQuery(trpc.orders.recent.queryOptions());
  return (
    <section aria-labelledby="recent-orders-heading" className="mt-10 rounded-2xl border border-stone-200 bg-white">
      <div className="flex items-center justify-between gap-4 border-b border-stone-200 px-5 py-4 sm:px-6">
        <h2 id="recent-orders-heading" className="font-display text-lg font-bold text-stone-950">
          Recent Orders
        </h2>
        {recent.data && recent.data.length > 0 && (
          <Link to="/orders" className={`${textLinkClass} text-sm`}>
            View all orders
          </Link>
        )}
      </div>
      {!recent.data ? (
        <LoadingState label="Loading your orders..." />
      ) : recent.data.length === 0 ? (
        <NoOrdersYet />
      ) : (
        <div className="p-4 sm:p-6">
          <OrderList orders={recent.data} />
        </div>
      )}
    </section>
  );
}
