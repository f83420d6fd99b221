// The ranges Admin → Analytics offers. Without zod: the admin route reads its address with these,
// and route definitions load with the storefront's first page.

export const RANGE_PRESETS = [
  { value: 'today', label: 'Today' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
  { value: 'year', label: 'This year' },
  { value: 'custom', label: 'Two dates' },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]['value'];
export const DEFAULT_RANGE: RangePreset = '30d';
export const RANGE_VALUES = RANGE_PRESETS.map((preset) => preset.value);

/** 'YYYY-MM-DD', or absent. */
export const calendarDayParam = (value: unknown): string | undefined =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
