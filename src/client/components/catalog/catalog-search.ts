import { z } from 'zod';
import { SORT_OPTIONS, type SortOption } from '../../../shared/constants';
import { slugParam } from '../../../shared/schemas/catalog';

// Typed URL search params of the shop and category pages, so a filtered and sorted view survives a
// reload and can be shared. A hand-edited or stale value falls back instead of failing the page.

export const DEFAULT_SORT: SortOption = 'newest';

export const SORT_LABELS: Record<SortOption, string> = {
  newest: 'Newest',
  'price-low': 'Price: Low to High',
  'price-high': 'Price: High to Low',
};

export const sortSearchSchema = z.object({
  sort: z.enum(SORT_OPTIONS).default(DEFAULT_SORT).catch(DEFAULT_SORT),
});

export const shopSearchSchema = sortSearchSchema.extend({
  category: slugParam.optional().catch(undefined),
});

export const isSortOption = (value: string): value is SortOption => (SORT_OPTIONS as readonly string[]).includes(value);
