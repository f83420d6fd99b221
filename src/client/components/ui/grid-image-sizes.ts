// The `sizes` attribute of an image that fills one column of a grid in the pages' max-w-7xl
// container, worked out from the grid's Tailwind classes instead of by hand: the browser picks
// the smallest copy that covers that width, so a wrong figure fetches too much or looks soft.

/** Tailwind's breakpoints, narrowest first, with the container's side padding (px-4 sm:px-6 lg:px-8). */
const BREAKPOINTS = [
  { name: 'base', minWidth: 0, padding: 16 },
  { name: 'sm', minWidth: 640, padding: 24 },
  { name: 'md', minWidth: 768, padding: 24 },
  { name: 'lg', minWidth: 1024, padding: 32 },
] as const;
type Breakpoint = (typeof BREAKPOINTS)[number];
/** max-w-7xl: from this viewport width on, a column's width stays the same. */
const CONTAINER_MAX = 1280;

/** A value from each breakpoint on, as Tailwind's responsive classes set it. */
export type Responsive = { base: number; sm?: number; md?: number; lg?: number };

export interface GridLayout {
  /** grid-cols-N at each breakpoint. */
  columns: Responsive;
  /** The column gap in px at each breakpoint (gap-x-4 = 16, gap-x-6 = 24, ...). */
  gap: Responsive;
}

/** The value set at this breakpoint or, failing that, at the nearest one below it. */
function at(value: Responsive, index: number): number {
  for (let i = index; i > 0; i--) {
    const set = value[BREAKPOINTS[i]!.name as Exclude<Breakpoint['name'], 'base'>];
    if (set !== undefined) return set;
  }
  return value.base;
}

/** How many columns share the viewport, and what the padding and gaps take from it. */
function columnAt(layout: GridLayout, index: number) {
  const columns = at(layout.columns, index);
  return { columns, taken: 2 * BREAKPOINTS[index]!.padding + (columns - 1) * at(layout.gap, index) };
}

function columnWidth(layout: GridLayout, index: number): string {
  const { columns, taken } = columnAt(layout, index);
  return columns === 1 ? `calc(100vw - ${taken}px)` : `calc((100vw - ${taken}px) / ${columns})`;
}

/**
 * E.g. 2 columns, 3 from md, gaps 16 then 24 from sm: "(min-width: 1280px) 389px, (min-width:
 * 1024px) calc((100vw - 112px) / 3), ..., calc((100vw - 48px) / 2)". A breakpoint that changes
 * nothing is left out.
 */
export function gridImageSizes(layout: GridLayout): string {
  const widest = columnAt(layout, BREAKPOINTS.length - 1);
  const entries = [`(min-width: ${CONTAINER_MAX}px) ${Math.round((CONTAINER_MAX - widest.taken) / widest.columns)}px`];
  for (let i = BREAKPOINTS.length - 1; i > 0; i--) {
    const width = columnWidth(layout, i);
    if (width !== columnWidth(layout, i - 1)) entries.push(`(min-width: ${BREAKPOINTS[i]!.minWidth}px) ${width}`);
  }
  entries.push(columnWidth(layout, 0));
  return entries.join(', ');
}
