import { z } from 'zod';
import { SEARCH_SORT_OPTIONS, SHOP_PAGE_SIZE, SORT_OPTIONS } from '../constants';
import { searchQuery } from '../search';

export const slugParam = z.string().trim().min(1).max(200);

export const productListInput = z.object({
  /** Slug of an active category; absent means every category. */
  category: slugParam.optional(),
  /** Slug of a shirt colour (?colour=black); absent means every colour. */
  colour: slugParam.optional(),
  sort: z.enum(SORT_OPTIONS).default('newest'),
  /** Opaque position returned as nextCursor by the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(100).default(SHOP_PAGE_SIZE),
});
export type ProductListInput = z.input<typeof productListInput>;

/** Where a search's next page starts: the offset of its first result. */
export const SEARCH_MAX_OFFSET = 10_000;

export const productSearchInput = z.object({
  /** The visitor's words; a longer query is cut, not refused (searchQuery). */
  q: z.string().max(2_000).transform(searchQuery),
  category: slugParam.optional(),
  sort: z.enum(SEARCH_SORT_OPTIONS).default('relevance'),
  /** Opaque position returned as nextCursor by the previous page. */
  cursor: z.string().max(20).optional(),
  limit: z.number().int().min(1).max(100).default(SHOP_PAGE_SIZE),
});
export type ProductSearchInput = z.input<typeof productSearchInput>;
