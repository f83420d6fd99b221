import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Gift } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../../shared/dates';
import { SUBSCRIBER_FILTERS } from '../../../../shared/constants';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { SUBSCRIPTION_STATUS_LABELS, SubscriptionStatusBadge } from '../../status-badges';
import { nextShipmentText } from '../../subscription-schedule';
import { Card, cardClass } from '../../ui/Card';
import { Select } from '../../ui/fields';
import { SearchField } from '../../ui/SearchField';
import { EnumSelect } from '../parts/EnumSelect';
import { ListPagination, PagedListStates } from '../parts/paged-list';
import { KEEP_PREVIOUS_PAGE } from '../../ui/Pagination';
import { useListInAddress } from '../parts/list-in-address';
import { PageHeader } from '../parts/PageHeader';
import { RecordOptions } from '../parts/RecordOptions';
import { cell, OpenableRows } from '../parts/table';
import { SubscriberDetailModal } from './SubscriberDetailModal';
import { listInputOf } from './subscribers-search';
import { planPrice, UNTIL_RESUMED } from './subscriber-look';

// The Subscribers screen: the club's members, newest first and paged on the server,
// searched by email and filtered by plan and status; a click opens the member's detail.

const route = getRouteApi('/admin/subscribers');

type MemberRow = RouterOutputs['admin']['subscribers']['list']['items'][number];

export function SubscribersPage() {
  const { input, searchField, filterBy, toPage } = useListInAddress(route, listInputOf);
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.subscribers.list.queryOptions(input, KEEP_PREVIOUS_PAGE));
  const plans = useQuery(trpc.admin.plans.list.queryOptions()).data ?? [];
  const [openId, setOpenId] = useState<string | null>(null);

  // Most admin list read errors are silent (docs/PRODUCT.md § Messages); keep a trace for whoever looks.
  useEffect(() => {
    if (list.error) console.warn('Failed to load subscribers', list.error);
  }, [list.error]);

  return (
    <>
      <PageHeader title="Subscribers" subtitle="Members of the t-shirt club, newest first" />

      <Card className="mb-4 grid grid-cols-1 gap-3 p-4 sm:grid-cols-[1fr_14rem_11rem]">
        <SearchField label="Search" {...searchField} placeholder="Search by email..." />
        <Select label="Plan" value={input.planId ?? ''} onChange={(event) => filterBy({ planId: event.target.value || undefined })}>
          <option value="">All Plans</option>
          <RecordOptions records={plans} />
        </Select>
        <EnumSelect
          label="Status"
          values={SUBSCRIBER_FILTERS}
          value={input.status}
          optionLabel={(value) => (value === 'all' ? 'All Statuses' : SUBSCRIPTION_STATUS_LABELS[value])}
          onChange={(status) => filterBy({ status: status === 'all' ? undefined : status })}
        />
      </Card>

      <section aria-label="Subscribers" aria-busy={list.isFetching} className={`${cardClass} overflow-hidden`}>
        <PagedListStates
          list={list}
          noun="subscribers"
          icon={Gift}
          filtered={Boolean(input.search || input.planId || input.status !== 'all')}
          hints={{ filtered: 'Try another search or filter.', empty: 'Members appear here when they join a plan.' }}
        >
          {(rows) => <SubscriberTable rows={rows} onOpen={setOpenId} />}
        </PagedListStates>
      </section>

      <ListPagination list={list.data} itemLabel="subscribers" onChange={toPage} />

      {openId && <SubscriberDetailModal subscriptionId={openId} onClose={() => setOpenId(null)} />}
    </>
  );
}

/** The members as a table from sm up, as one card each on phones. */
function SubscriberTable({ rows, onOpen }: { rows: MemberRow[]; onOpen: (id: string) => void }) {
  return (
    <OpenableRows
      rows={rows}
      testId="subscriber"
      columns={['Customer', 'Plan', 'Status', 'Size', 'Next shipment', { label: 'Price', className: 'text-right' }, 'Joined']}
      onOpen={onOpen}
      card={(row) => (
        <>
          <span className="flex items-start justify-between gap-3">
            <span className="min-w-0 truncate font-semibold text-stone-900">{row.customer_email}</span>
            <SubscriptionStatusBadge status={row.status} cancelAt={row.cancel_at} />
          </span>
          <span className="mt-0.5 block text-sm text-stone-700">
            {row.plan_name} · <span className="tabular-nums">{planPrice(row)}</span> · Size {row.size}
          </span>
          <span className="mt-1 block text-xs text-stone-600">
            Next shipment: {nextShipmentText(row, UNTIL_RESUMED)} · Joined {formatDate(row.created_at)}
          </span>
        </>
      )}
      opener={(row) => row.customer_email}
      openerCellClass="break-all"
      cells={(row) => (
        <>
          <td className={`${cell} text-stone-700`}>{row.plan_name}</td>
          <td className={cell}>
            <SubscriptionStatusBadge status={row.status} cancelAt={row.cancel_at} testId="subscriber-status" />
          </td>
          <td className={`${cell} text-stone-700`}>{row.size}</td>
          <td className={`${cell} whitespace-nowrap text-stone-700`}>{nextShipmentText(row, UNTIL_RESUMED)}</td>
          <td className={`${cell} text-right font-medium whitespace-nowrap text-stone-900 tabular-nums`}>{planPrice(row)}</td>
          <td className={`${cell} whitespace-nowrap text-stone-700`}>{formatDate(row.created_at)}</td>
        </>
      )}
    />
  );
}
