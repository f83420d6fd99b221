import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Plus, TicketPercent } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../../shared/dates';
import { DISCOUNT_FILTERS, DISCOUNT_STATUS_LABELS, discountOffer, type DiscountStatus } from '../../../../shared/schemas/admin-discounts';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card, cardClass } from '../../ui/Card';
import { KEEP_PREVIOUS_PAGE } from '../../ui/Pagination';
import { SearchField } from '../../ui/SearchField';
import { EnumSelect } from '../parts/EnumSelect';
import { useListInAddress } from '../parts/list-in-address';
import { ListPagination, PagedListStates } from '../parts/paged-list';
import { PageHeader } from '../parts/PageHeader';
import { cell, OpenableRows } from '../parts/table';
import { DiscountForm } from './DiscountForm';
import { listInputOf } from './discounts-search';

// The Discounts screen (docs/adr/0031-discount-rules-and-rounding.md): codes newest first, paged on
// the server, searched by code and filtered by their state now; the inline form creates a code, or
// edits and switches off the one clicked.

const route = getRouteApi('/admin/discounts');

export type DiscountRow = RouterOutputs['admin']['discounts']['list']['items'][number];

const STATUS_TONES: Record<DiscountStatus, BadgeTone> = {
  active: 'green',
  scheduled: 'blue',
  expired: 'stone',
  used_up: 'amber',
  off: 'stone',
};

function DiscountStatusBadge({ status }: { status: DiscountStatus }) {
  return (
    <Badge tone={STATUS_TONES[status]} testId="discount-status" asWritten>
      {DISCOUNT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** "12 of 100", or "12" without a limit. */
const usesText = (row: DiscountRow) => (row.usage_limit === null ? `${row.used_count}` : `${row.used_count} of ${row.usage_limit}`);

/** "From Mar 5, 2027", "Until …", "Mar 5 – Apr 1, 2027", or "Always". */
function periodText(row: DiscountRow): string {
  // ends_at is the moment after the last day.
  const lastDay = row.ends_at ? formatDate(new Date(Date.parse(row.ends_at) - 1).toISOString()) : null;
  const firstDay = row.starts_at ? formatDate(row.starts_at) : null;
  if (firstDay && lastDay) return `${firstDay} – ${lastDay}`;
  if (firstDay) return `From ${firstDay}`;
  if (lastDay) return `Until ${lastDay}`;
  return 'Always';
}

type FormState = { mode: 'closed' } | { mode: 'new' } | { mode: 'edit'; id: string };

export function DiscountsPage() {
  const { input, searchField, filterBy, toPage } = useListInAddress(route, listInputOf);
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.discounts.list.queryOptions(input, KEEP_PREVIOUS_PAGE));
  const [form, setForm] = useState<FormState>({ mode: 'closed' });
  const editing = form.mode === 'edit' ? (list.data?.items.find((row) => row.id === form.id) ?? null) : null;

  // Most admin list read errors are silent (docs/PRODUCT.md § Messages); keep a trace for whoever looks.
  useEffect(() => {
    if (list.error) console.warn('Failed to load discount codes', list.error);
  }, [list.error]);

  const openEdit = (id: string) => {
    setForm({ mode: 'edit', id });
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  return (
    <>
      <PageHeader
        title="Discounts"
        subtitle="Discount codes shoppers enter at checkout, newest first"
        actions={
          form.mode === 'closed' && (
            <Button variant="accent" icon={Plus} onClick={() => setForm({ mode: 'new' })}>
              New Discount Code
            </Button>
          )
        }
      />

      {(form.mode === 'new' || editing) && (
        <DiscountForm
          // A fresh form per code and per stamp: opening a code again after it changed edits it as it is now.
          key={editing ? `${editing.id}@${editing.updated_at}` : 'new'}
          editing={editing}
          onDone={() => setForm({ mode: 'closed' })}
        />
      )}

      <Card className="mb-4 grid grid-cols-1 gap-3 p-4 sm:grid-cols-[1fr_14rem]">
        <SearchField label="Search" {...searchField} placeholder="Search by code..." />
        <EnumSelect
          label="Status"
          values={DISCOUNT_FILTERS}
          value={input.status}
          optionLabel={(value) => (value === 'all' ? 'All Statuses' : DISCOUNT_STATUS_LABELS[value])}
          onChange={(status) => filterBy({ status: status === 'all' ? undefined : status })}
        />
      </Card>

      <section aria-label="Discount codes" aria-busy={list.isFetching} className={`${cardClass} overflow-hidden`}>
        <PagedListStates
          list={list}
          noun="discount codes"
          icon={TicketPercent}
          filtered={Boolean(input.search || input.status !== 'all')}
          hints={{ filtered: 'Try another search or status.', empty: 'Create a code for a launch, a sale or a thank-you.' }}
        >
          {(rows) => <DiscountTable rows={rows} onOpen={openEdit} />}
        </PagedListStates>
      </section>

      <ListPagination list={list.data} itemLabel="discount codes" onChange={toPage} />
    </>
  );
}

/** The codes as a table from sm up, as one card each on phones; a click opens the code in the form. */
function DiscountTable({ rows, onOpen }: { rows: DiscountRow[]; onOpen: (id: string) => void }) {
  return (
    <OpenableRows
      rows={rows}
      testId="discount"
      columns={['Code', 'Status', 'Gives', 'On', 'Period', { label: 'Uses', className: 'text-right' }]}
      onOpen={onOpen}
      card={(row) => (
        <>
          <span className="flex items-start justify-between gap-3">
            <span className="min-w-0 font-mono font-semibold break-all text-stone-900">{row.code}</span>
            <DiscountStatusBadge status={row.status} />
          </span>
          <span className="mt-0.5 block text-sm text-stone-700">
            {discountOffer(row)} · {targetText(row)}
          </span>
          <span className="mt-1 block text-xs text-stone-600">
            {periodText(row)} · Used {usesText(row)}
          </span>
        </>
      )}
      opener={(row) => <span className="font-mono">{row.code}</span>}
      openerCellClass="break-all"
      cells={(row) => (
        <>
          <td className={cell}>
            <DiscountStatusBadge status={row.status} />
          </td>
          <td className={`${cell} whitespace-nowrap text-stone-700`}>{discountOffer(row)}</td>
          <td className={`${cell} text-stone-700`}>{targetText(row)}</td>
          <td className={`${cell} whitespace-nowrap text-stone-700`}>{periodText(row)}</td>
          <td className={`${cell} text-right whitespace-nowrap text-stone-700 tabular-nums`}>{usesText(row)}</td>
        </>
      )}
    />
  );
}

/** What the code applies to, in the list's words. */
function targetText(row: DiscountRow): string {
  if (row.applies_to === 'categories') return row.category_ids.length === 1 ? '1 category' : `${row.category_ids.length} categories`;
  if (row.applies_to === 'products') return row.product_ids.length === 1 ? '1 product' : `${row.product_ids.length} products`;
  return row.applies_to_club ? 'Whole order, club joins' : 'Whole order';
}
