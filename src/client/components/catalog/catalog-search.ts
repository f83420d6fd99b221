import { SORT_OPTIONS, type SortOption } from '../../../shared/constants';
import { oneOf, searchParams, text } from '../../search-params';

// Typed URL search params of the shop and category pages, so a filtered and sorted view survives a
// reload and can be shared. A hand-edited or stale value falls back instead of failing the page.

export const DEFAULT_SORT: SortOption = 'newest';

export const SORT_LABELS: Record<SortOption, string> = {
  newest: 'Newest',
  'price-low': 'Price: Low to High',
  'price-high': 'Price: High to Low',
};

const sortOf = (value: unknown) => oneOf(SORT_OPTIONS, value) ?? DEFAULT_SORT;

export const sortSearch = searchParams<{ sort?: SortOption }>()((raw) => ({ sort: sortOf(raw.sort) }));

export const shopSearch = searchParams<{ sort?: SortOption; category?: string }>()((raw) => ({
  sort: sortOf(raw.sort),
  category: text(raw.category, 200),
}));

export const isSortOption = (value: string): value is SortOption => oneOf(SORT_OPTIONS, value) !== undefined;
