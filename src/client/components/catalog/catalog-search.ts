import { SEARCH_SORT_OPTIONS, SORT_OPTIONS, type SearchSortOption, type SortOption } from '../../../shared/constants';
import { searchQuery } from '../../../shared/search';
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

/** A colour's slug (?colour=black); the router reads ?colour=1 as a number. */
const colourOf = (value: unknown) => text(typeof value === 'number' ? String(value) : value, 80);

/** The category page's params. */
export const categorySearch = searchParams<{ sort?: SortOption; colour?: string }>()((raw) => ({
  sort: sortOf(raw.sort),
  colour: colourOf(raw.colour),
}));

export const shopSearch = searchParams<{ sort?: SortOption; category?: string; colour?: string }>()((raw) => ({
  sort: sortOf(raw.sort),
  category: text(raw.category, 200),
  colour: colourOf(raw.colour),
}));

export const SEARCH_SORT_LABELS: Record<SearchSortOption, string> = { relevance: 'Best Match', ...SORT_LABELS };

/**
 * The search page's params. The router reads `?q=1042` as a number: it is still the text typed.
 * The query is cut as the server cuts it (searchQuery).
 */
export const searchPageSearch = searchParams<{ q?: string; sort?: SearchSortOption; category?: string }>()((raw) => ({
  q: searchQuery(typeof raw.q === 'number' ? String(raw.q) : typeof raw.q === 'string' ? raw.q : ''),
  sort: oneOf(SEARCH_SORT_OPTIONS, raw.sort) ?? 'relevance',
  category: text(raw.category, 200),
}));
