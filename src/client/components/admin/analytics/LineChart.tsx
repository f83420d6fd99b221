import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

// A line chart drawn by uPlot. Loaded only through `Chart.tsx`'s lazy import, so uPlot reaches
// admin pages that draw a chart and never the storefront. The tooltip follows the pointer, and
// the keyboard: focus the chart, then Left/Right (Home/End) move from point to point.

export interface LineSeries {
  label: string;
  values: number[];
  /** Drawn faintly behind the others (the previous period). */
  faint?: boolean;
}

export interface LineChartProps {
  /** What the chart shows, for screen readers (its table alternative has the figures). */
  label: string;
  /** One label per point, e.g. "Mar 5". */
  points: string[];
  series: LineSeries[];
  format: (value: number) => string;
  /** Counts: the value axis steps by whole numbers. */
  whole?: boolean;
  height?: number;
}

const LINE = '#b45309';
const FAINT = '#d6d3d1';

export default function LineChart({ label, points, series, format, whole = false, height = 260 }: LineChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const [index, setIndex] = useState<number | null>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: element.clientWidth,
      height,
      legend: { show: false },
      scales: { x: { time: false } },
      cursor: { y: false, points: { size: 8 } },
      axes: [
        {
          stroke: '#57534e',
          grid: { show: false },
          // Whole points only, labelled with their day.
          incrs: [1, 2, 5, 7, 14, 30, 60],
          values: (_chart, splits) => splits.map((split) => points[split] ?? ''),
        },
        {
          stroke: '#57534e',
          grid: { stroke: '#f5f5f4' },
          size: 64,
          ...(whole ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] } : {}),
          values: (_chart, splits) => splits.map(format),
        },
      ],
      series: [
        {},
        // Faint series first, so the current one is drawn over them.
        ...[...series]
          .sort((a, b) => Number(Boolean(b.faint)) - Number(Boolean(a.faint)))
          .map((line) => ({ label: line.label, stroke: line.faint ? FAINT : LINE, width: line.faint ? 1.5 : 2.5 })),
      ],
      hooks: { setCursor: [(u) => setIndex(u.cursor.idx ?? null)] },
    };
    const ordered = [...series].sort((a, b) => Number(Boolean(b.faint)) - Number(Boolean(a.faint)));
    const plot = new uPlot(options, [points.map((_, i) => i), ...ordered.map((line) => line.values)], element);
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [points, series, format, whole, height]);

  const moveTo = (next: number) => {
    const plot = chart.current;
    if (!plot || points.length === 0) return;
    const i = Math.max(0, Math.min(points.length - 1, next));
    const top = plot.valToPos(series[0]?.values[i] ?? 0, 'y');
    plot.setCursor({ left: plot.valToPos(i, 'x'), top });
    setIndex(i);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, number> = { ArrowLeft: (index ?? 0) - 1, ArrowRight: (index ?? -1) + 1, Home: 0, End: points.length - 1 };
    const next = keys[event.key];
    if (next === undefined) return;
    event.preventDefault();
    moveTo(next);
  };

  return (
    <div className="relative">
      <div
        ref={box}
        role="img"
        aria-label={`${label}. Use the left and right arrow keys to read each point.`}
        tabIndex={0}
        onFocus={() => moveTo(index ?? points.length - 1)}
        onKeyDown={onKeyDown}
        className="rounded-lg focus-visible:ring-3 focus-visible:ring-accent-600/30 focus-visible:outline-none"
      />
      {index !== null && points[index] !== undefined && (
        <div
          role="status"
          data-testid="chart-tooltip"
          className="pointer-events-none absolute top-2 right-2 rounded-lg border border-stone-200 bg-white/95 px-3 py-2 text-xs shadow-md"
        >
          <p className="font-semibold text-stone-900">{points[index]}</p>
          {series.map((line) => (
            <p key={line.label} className={line.faint ? 'text-stone-500' : 'text-stone-800'}>
              {line.label}: {format(line.values[index] ?? 0)}
            </p>
          ))}
        </div>
      )}
    </div>
  );
}
