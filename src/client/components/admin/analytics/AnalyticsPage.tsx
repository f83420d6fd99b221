import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CircleHelp, Download } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { RANGE_PRESETS, type RangePreset } from '../../../../shared/analytics-ranges';
import { formatCalendarDay } from '../../../../shared/dates';
import { formatMoney } from '../../../../shared/money';
import {
  CARD_HELP,
  chartPoints,
  DAILY_CSV_HEADER,
  dailyCsvRows,
  formatChange,
  percentChange,
} from '../../../../shared/schemas/admin-analytics';
import { errorMessage } from '../../../errors';
import { saveFile } from '../../../save-file';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Button } from '../../ui/Button';
import { cardClass } from '../../ui/Card';
import { controlClass } from '../../ui/fields';
import { PageHeader } from '../parts/PageHeader';
import { BarList, ChartCard, LazyLineChart } from './Chart';

// Admin → Analytics (docs/PRODUCT.md § Analytics): a range against the period before it, cards
// with their change in %, charts each with a table alternative, and the range's days as CSV.

export interface AnalyticsSearch {
  range: RangePreset;
  from?: string | undefined;
  to?: string | undefined;
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayLabel = (day: string) => shortDay.format(new Date(`${day}T00:00:00Z`));
const monthLabel = (month: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
const moneyAxis = (value: number) => formatMoney(value);
const wholeAxis = (value: number) => value.toLocaleString('en-US');

export function AnalyticsPage({ search, onSearchChange }: { search: AnalyticsSearch; onSearchChange: (next: AnalyticsSearch) => void }) {
  const trpc = useTRPC();
  const input = search.range === 'custom' ? search : { range: search.range };
  const query = useQuery({ ...trpc.admin.analytics.overview.queryOptions(input), placeholderData: keepPreviousData });
  const data = query.data;

  const download = () => {
    if (!data) return;
    const lines = [DAILY_CSV_HEADER, ...dailyCsvRows(data.days)].map((row) => row.join(','));
    saveFile(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' }), `sales-${data.current.from}-to-${data.current.to}.csv`);
  };

  return (
    <>
      <PageHeader
        title="Analytics"
        subtitle={
          data
            ? `${formatCalendarDay(data.current.from)} – ${formatCalendarDay(data.current.to)} compared with ${formatCalendarDay(data.previous.from)} – ${formatCalendarDay(data.previous.to)} (${data.timeZone})`
            : 'How the store is doing'
        }
        actions={
          <Button variant="secondary" size="sm" onClick={download} disabled={!data}>
            <Download className="size-4" aria-hidden="true" />
            Download CSV
          </Button>
        }
      />
      <RangePicker search={search} onChange={onSearchChange} />
      {query.error && !data && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {errorMessage(query.error, 'Could not load the figures')}
        </p>
      )}
      {data && <Figures data={data} />}
    </>
  );
}

function RangePicker({ search, onChange }: { search: AnalyticsSearch; onChange: (next: AnalyticsSearch) => void }) {
  const [from, setFrom] = useState(search.from ?? '');
  const [to, setTo] = useState(search.to ?? '');
  const [custom, setCustom] = useState(search.range === 'custom');
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onChange({ range: 'custom', from, to });
  };
  return (
    <form onSubmit={apply} className="flex flex-wrap items-end gap-3" aria-label="Choose a range">
      <label className="w-full text-sm font-medium text-stone-800 sm:w-56">
        Date range
        <select
          className={`mt-1.5 ${controlClass()} pr-8`}
          value={custom ? 'custom' : search.range}
          onChange={(event) => {
            const range = event.target.value as RangePreset;
            setCustom(range === 'custom');
            if (range !== 'custom') onChange({ range });
          }}
        >
          {RANGE_PRESETS.map((preset) => (
            <option key={preset.value} value={preset.value}>
              {preset.label}
            </option>
          ))}
        </select>
      </label>
      {custom && (
        <>
          <label className="text-sm font-medium text-stone-800">
            From
            <input
              type="date"
              required
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              className={`mt-1.5 ${controlClass()}`}
            />
          </label>
          <label className="text-sm font-medium text-stone-800">
            To
            <input type="date" required value={to} onChange={(event) => setTo(event.target.value)} className={`mt-1.5 ${controlClass()}`} />
          </label>
          <Button type="submit" size="md">
            Apply
          </Button>
        </>
      )}
    </form>
  );
}

type Overview = RouterOutputs['admin']['analytics']['overview'];

function Figures({ data }: { data: Overview }) {
  const { current, previous } = data.cards;
  const salesPoints = useMemo(() => chartPoints(data.days), [data.days]);
  const previousPoints = useMemo(() => chartPoints(data.previousDays), [data.previousDays]);
  const weekly = data.days.length !== salesPoints.length;
  const labels = useMemo(() => salesPoints.map((point) => dayLabel(point.day)), [salesPoints]);
  const salesSeries = useMemo(
    () => [
      { label: 'This period', values: salesPoints.map((point) => point.net) },
      { label: 'Previous period', values: previousPoints.map((point) => point.net), faint: true },
    ],
    [salesPoints, previousPoints],
  );
  const orderSeries = useMemo(() => [{ label: 'Orders', values: salesPoints.map((point) => point.orders) }], [salesPoints]);
  const mrrLabels = useMemo(() => data.mrrByMonth.map((month) => monthLabel(month.month)), [data.mrrByMonth]);
  const mrrSeries = useMemo(() => [{ label: 'MRR', values: data.mrrByMonth.map((month) => Number(month.mrr)) }], [data.mrrByMonth]);
  const per = weekly ? 'week' : 'day';
  const pointHead = weekly ? 'Week of' : 'Day';

  return (
    <>
      <section aria-label="Sales" className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        <FigureCard
          label="Total sales"
          help={CARD_HELP.totalSales}
          value={formatMoney(current.totalSales)}
          change={percentChange(Number(current.totalSales), Number(previous.totalSales))}
        />
        <FigureCard
          label="Orders"
          help={CARD_HELP.orders}
          value={wholeAxis(current.orders)}
          change={percentChange(current.orders, previous.orders)}
        />
        <FigureCard
          label="Average order value"
          help={CARD_HELP.averageOrderValue}
          value={formatMoney(current.averageOrderValue)}
          change={percentChange(Number(current.averageOrderValue), Number(previous.averageOrderValue))}
        />
        <FigureCard
          label="Returning customer rate"
          help={CARD_HELP.returningCustomerRate}
          value={`${current.returningCustomerRate}%`}
          change={percentChange(Number(current.returningCustomerRate), Number(previous.returningCustomerRate))}
        />
        <FigureCard
          label="Discounts given"
          help={CARD_HELP.discountsGiven}
          value={formatMoney(current.discountsGiven)}
          change={percentChange(Number(current.discountsGiven), Number(previous.discountsGiven))}
        />
      </section>
      <section aria-label="Subscription club" className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-3">
        <FigureCard
          label="MRR"
          help={CARD_HELP.mrr}
          value={formatMoney(current.mrr)}
          change={percentChange(Number(current.mrr), Number(previous.mrr))}
        />
        <FigureCard
          label="Active members"
          help={CARD_HELP.activeMembers}
          value={wholeAxis(current.activeMembers)}
          change={percentChange(current.activeMembers, previous.activeMembers)}
        />
        <FigureCard
          label="Churn"
          help={CARD_HELP.churn}
          value={`${current.churnPercent}%`}
          change={percentChange(Number(current.churnPercent), Number(previous.churnPercent))}
        />
      </section>

      <div className="mt-6 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ChartCard
          title={`Sales per ${per}`}
          table={{
            head: [pointHead, 'Net sales', 'Previous period'],
            rows: salesPoints.map((point, i) => [dayLabel(point.day), formatMoney(point.net), formatMoney(previousPoints[i]?.net ?? 0)]),
          }}
        >
          <LazyLineChart
            label={`Net sales per ${per}, this period and the previous one`}
            points={labels}
            series={salesSeries}
            format={moneyAxis}
          />
        </ChartCard>
        <ChartCard
          title={`Orders per ${per}`}
          table={{ head: [pointHead, 'Orders'], rows: salesPoints.map((point) => [dayLabel(point.day), wholeAxis(point.orders)]) }}
        >
          <LazyLineChart label={`Paid orders per ${per}`} points={labels} series={orderSeries} format={wholeAxis} whole />
        </ChartCard>
        <ChartCard
          title="MRR, last 12 months"
          table={{ head: ['Month', 'MRR'], rows: data.mrrByMonth.map((month) => [monthLabel(month.month), formatMoney(month.mrr)]) }}
        >
          <LazyLineChart
            label="Monthly recurring revenue at the end of each of the last 12 months"
            points={mrrLabels}
            series={mrrSeries}
            format={moneyAxis}
          />
        </ChartCard>
        <ChartCard
          title="Sales by category"
          table={{ head: ['Category', 'Sales'], rows: data.salesByCategory.map((row) => [row.category, formatMoney(row.sales)]) }}
        >
          <BarList
            label="Sales by category"
            bars={data.salesByCategory.map((row) => ({ name: row.category, value: Number(row.sales) }))}
            format={moneyAxis}
          />
        </ChartCard>
        <ChartCard
          title="Top designs by units"
          table={{ head: ['Design', 'Units'], rows: data.topByUnits.map((design) => [design.name, wholeAxis(design.units)]) }}
        >
          <BarList
            label="Top designs by units"
            bars={data.topByUnits.map((design) => ({ name: design.name, value: design.units }))}
            format={wholeAxis}
          />
        </ChartCard>
        <ChartCard
          title="Top designs by revenue"
          table={{ head: ['Design', 'Revenue'], rows: data.topByRevenue.map((design) => [design.name, formatMoney(design.revenue)]) }}
        >
          <BarList
            label="Top designs by revenue"
            bars={data.topByRevenue.map((design) => ({ name: design.name, value: Number(design.revenue) }))}
            format={moneyAxis}
          />
        </ChartCard>
      </div>
    </>
  );
}

function FigureCard({ label, help, value, change }: { label: string; help: string; value: string; change: number | null }) {
  const helpId = useId();
  const tone = change === null || change === 0 ? 'text-stone-600' : change > 0 ? 'text-emerald-700' : 'text-red-700';
  return (
    <div className={`${cardClass} p-4 sm:p-5`}>
      <dl>
        <dt className="flex items-center gap-1.5 text-sm font-medium text-stone-600">
          {label}
          <span className="group relative inline-flex">
            <button
              type="button"
              aria-describedby={helpId}
              aria-label={`About ${label}`}
              className="rounded-full text-stone-500 hover:text-stone-800 focus-visible:ring-3 focus-visible:ring-accent-600/30 focus-visible:outline-none"
            >
              <CircleHelp className="size-4" aria-hidden="true" />
            </button>
            <span
              id={helpId}
              role="tooltip"
              className="pointer-events-none absolute top-6 left-1/2 z-10 hidden w-60 -translate-x-1/2 rounded-lg border border-stone-200 bg-white p-2.5 text-xs font-normal text-stone-800 shadow-lg group-focus-within:block group-hover:block"
            >
              {help}
            </span>
          </span>
        </dt>
        <dd className="font-display mt-1 text-2xl font-extrabold tracking-tight text-stone-950" data-testid={`card-${label}`}>
          {value}
        </dd>
        <dd className={`mt-0.5 text-sm font-semibold ${tone}`}>
          {formatChange(change)} <span className="font-normal text-stone-600">vs previous period</span>
        </dd>
      </dl>
    </div>
  );
}
