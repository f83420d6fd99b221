import { z } from 'zod';

// Typed URL search params of /admin/products, so a search, filter and page survive a reload and
// can be shared. A hand-edited or stale value falls back instead of failing the page.
export const productsSearchSchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  categoryId: z.uuid().optional().catch(undefined),
  page: z.number().int().min(1).max(100_000).optional().catch(undefined),
});
export type ProductsSearch = z.infer<typeof productsSearchSchema>;

/** The admin.products.list input for these params. */
export const listInputOf = (search: ProductsSearch) => ({
  search: search.search || undefined,
  categoryId: search.categoryId,
  page: search.page ?? 1,
});
