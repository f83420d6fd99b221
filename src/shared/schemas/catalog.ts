import { z } from 'zod';
import { SHOP_PAGE_SIZE, SORT_OPTIONS } from '../constants';

export const slugParam = z.string().trim().min(1).max(200);

export const productListInput = z.object({
  /** Slug of an active category; absent means every category. */
  category: slugParam.optional(),
  sort: z.enum(SORT_OPTIONS).default('newest'),
  /** Opaque position returned as nextCursor by the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(100).default(SHOP_PAGE_SIZE),
});
export type ProductListInput = z.input<typeof productListInput>;
