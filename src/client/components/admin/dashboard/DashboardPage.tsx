import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import {
  ArrowRight,
  DollarSign,
  FolderTree,
  Mail,
  Package,
  Repeat,
  ShoppingCart,
  TrendingDown,
  Truck,
  UserCheck,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { formatMoney } from '../../../../shared/money';
import { useTRPC } from '../../../trpc';
import { formatCalendarDay, formatDateTime } from '../../../../shared/dates';
import { chartPoints } from '../../../../shared/schemas/admin-analytics';
import { LazyLineChart } from '../analytics/Chart';
import { ContactStatusBadge } from '../../status-badges';
import { textLinkClass } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { PageHeader } from '../parts/PageHeader';
import { StatTile } from '../parts/StatTile';

const quickActionClass =
  'group flex items-center gap-3 rounded-lg border border-stone-200 bg-white px-4 py-3 text-sm font-semibold text-stone-800 transition hover:border-stone-300 hover:bg-stone-50';

export function DashboardPage() {
  const trpc = useTRPC();
  // Read errors stay quiet (docs/PRODUCT.md § Messages): the cards show a dash.
  const overview = useQuery(trpc.admin.dashboard.overview.queryOptions()).data;
  const number = (value: number | undefined) => (value === undefined ? '—' : value.toLocaleString('en-US'));
  const club = overview?.club;

  return (
    <>
      <PageHeader title="Dashboard" subtitle="An overview of your store" />

      <section aria-label="Store totals" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatTile label="Total Products" value={number(overview?.totalProducts)} icon={Package} testId="stat-products" />
        <StatTile label="Total Orders" value={number(overview?.totalOrders)} icon={ShoppingCart} testId="stat-orders" />
        <StatTile label="Total Customers" value={number(overview?.totalCustomers)} icon={Users} testId="stat-customers" />
        <StatTile
          label="Total Revenue"
          value={overview ? formatMoney(overview.totalRevenue) : '—'}
          icon={DollarSign}
          testId="stat-revenue"
        />
      </section>

      <SalesSparkline />

      <section aria-labelledby="club-heading" className="mt-6">
        <div className="mb-3 flex items-baseline justify-between gap-3">
          <h2 id="club-heading" className="font-display text-lg font-bold text-stone-950">
            Subscription Club
          </h2>
          <Link to="/admin/subscribers" className={`${textLinkClass} text-sm whitespace-nowrap`}>
            View subscribers
          </Link>
        </div>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <StatTile label="Active Members" value={number(club?.activeMembers)} icon={UserCheck} testId="stat-members" />
          <StatTile label="MRR" value={club ? formatMoney(club.mrr) : '—'} icon={Repeat} testId="stat-mrr" />
          <StatTile label="Churn This Month" value={club ? `${club.churnPercent}%` : '—'} icon={TrendingDown} testId="stat-churn" />
          <StatTile label="Ships in 7 Days" value={number(club?.shipmentsDue)} icon={Truck} testId="stat-shipments-due" />
        </div>
      </section>

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card title="Quick Actions" className="lg:self-start">
          <ul className="space-y-2">
            <QuickAction to="/admin/products" icon={Package} label="Manage Products" />
            <QuickAction to="/admin/categories" icon={FolderTree} label="Manage Categories" />
            <QuickAction to="/admin/orders" icon={ShoppingCart} label="View Orders" />
          </ul>
        </Card>

        <Card
          title="Recent Contact Submissions"
          className="lg:col-span-2"
          actions={
            <Link to="/admin/contact" className={`${textLinkClass} text-sm whitespace-nowrap`}>
              View all
            </Link>
          }
        >
          {overview && overview.recentContacts.length === 0 ? (
            <p className="py-10 text-center text-sm text-stone-600">No contact submissions yet</p>
          ) : (
            <ul className="-mt-2 divide-y divide-stone-100" data-testid="recent-contacts">
              {overview?.recentContacts.map((contact) => (
                <li key={contact.id} className="flex items-start gap-3 py-3">
                  <span className="mt-0.5 inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-stone-100 text-stone-600">
                    <Mail className="size-4" aria-hidden="true" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <p className="font-semibold text-stone-900">{contact.name}</p>
                      <ContactStatusBadge status={contact.status} />
                    </div>
                    <p className="truncate text-sm text-stone-700">{contact.subject}</p>
                    <p className="text-xs break-words text-stone-600">
                      {contact.email} · {formatDateTime(contact.created_at)}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}

/** The last 30 days' net sales, small, linking to Analytics for the rest. */
function SalesSparkline() {
  const trpc = useTRPC();
  const days = useQuery(trpc.admin.analytics.overview.queryOptions({ range: '30d' })).data?.days;
  const points = useMemo(() => chartPoints(days ?? []), [days]);
  const labels = useMemo(() => points.map((point) => formatCalendarDay(point.day)), [points]);
  const series = useMemo(() => [{ label: 'Net sales', values: points.map((point) => point.net) }], [points]);
  return (
    <Card
      title="Sales, last 30 days"
      className="mt-6"
      actions={
        <Link to="/admin/analytics" className={`${textLinkClass} text-sm whitespace-nowrap`}>
          View analytics
        </Link>
      }
    >
      {days ? (
        <LazyLineChart label="Net sales per day over the last 30 days" points={labels} series={series} format={formatMoney} height={140} />
      ) : (
        <div className="h-[140px]" aria-hidden="true" />
      )}
    </Card>
  );
}

function QuickAction({
  to,
  icon: Icon,
  label,
}: {
  to: '/admin/products' | '/admin/categories' | '/admin/orders';
  icon: LucideIcon;
  label: string;
}) {
  return (
    <li>
      <Link to={to} className={quickActionClass}>
        <Icon className="size-5 text-accent-700" aria-hidden="true" />
        <span className="flex-1">{label}</span>
        <ArrowRight className="size-4 text-stone-400 transition group-hover:translate-x-0.5" aria-hidden="true" />
      </Link>
    </li>
  );
}
