import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import type { LineChartProps } from './LineChart';

// A chart's card: the chart (uPlot, fetched when the first chart renders) or, under the "Show as
// table" toggle, the same figures as a table, its text alternative.
//
//   <ChartCard title="Orders per day" table={{ head: ['Day', 'Orders'], rows }}><LazyLineChart .../></ChartCard>

const LineChart = lazy(() => import('./LineChart'));

export function LazyLineChart(props: LineChartProps) {
  return (
    <Suspense fallback={<div style={{ height: props.height ?? 260 }} aria-hidden="true" />}>
      <LineChart {...props} />
    </Suspense>
  );
}

export interface FigureTable {
  head: string[];
  rows: string[][];
}

export function ChartCard({ title, table, children }: { title: string; table: FigureTable; children: ReactNode }) {
  const [asTable, setAsTable] = useState(false);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 shadow-xs sm:p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-display text-base font-bold text-stone-950">
          {title}
        </h2>
        <label className="inline-flex items-center gap-2 text-sm text-stone-700">
          <input
            type="checkbox"
            checked={asTable}
            onChange={(event) => setAsTable(event.target.checked)}
            className="size-4 rounded border-stone-400 accent-accent-700"
          />
          Show as table
        </label>
      </div>
      {asTable ? <FiguresTable caption={title} table={table} /> : children}
    </section>
  );
}

function FiguresTable({ caption, table }: { caption: string; table: FigureTable }) {
  return (
    <div className="max-h-80 overflow-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-white">
          <tr>
            {table.head.map((cell, i) => (
              <th
                key={cell}
                scope="col"
                className={`border-b border-stone-200 py-2 pr-3 font-semibold text-stone-700 ${i > 0 ? 'text-right' : ''}`}
              >
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row[0]} className="border-b border-stone-100">
              {row.map((cell, i) =>
                i === 0 ? (
                  <th key={i} scope="row" className="py-1.5 pr-3 font-medium text-stone-900">
                    {cell}
                  </th>
                ) : (
                  <td key={i} className="py-1.5 pr-3 text-right text-stone-800 tabular-nums">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {table.rows.length === 0 && <p className="py-6 text-center text-sm text-stone-600">No sales in this range</p>}
    </div>
  );
}

/** Horizontal bars drawn in HTML: each bar takes focus and shows its figure as a tooltip. */
export function BarList({
  label,
  bars,
  format,
}: {
  label: string;
  bars: { name: string; value: number }[];
  format: (value: number) => string;
}) {
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  if (bars.length === 0) return <p className="py-6 text-center text-sm text-stone-600">No sales in this range</p>;
  return (
    <ul aria-label={label} className="space-y-2">
      {bars.map((bar) => (
        <li key={bar.name} className="group relative">
          <div
            tabIndex={0}
            aria-label={`${bar.name}: ${format(bar.value)}`}
            className="rounded-md focus-visible:ring-3 focus-visible:ring-accent-600/30 focus-visible:outline-none"
          >
            <div className="flex justify-between gap-2 text-xs text-stone-700">
              <span className="truncate">{bar.name}</span>
            </div>
            <div className="mt-1 h-3 rounded bg-stone-100">
              <div className="h-3 rounded bg-accent-600" style={{ width: `${max === 0 ? 0 : Math.max(2, (100 * bar.value) / max)}%` }} />
            </div>
          </div>
          <span
            role="tooltip"
            className="pointer-events-none absolute -top-1 right-0 hidden rounded-md border border-stone-200 bg-white px-2 py-1 text-xs font-semibold text-stone-900 shadow-md group-focus-within:block group-hover:block"
          >
            {format(bar.value)}
          </span>
        </li>
      ))}
    </ul>
  );
}
