import { id, pageNumber, searchParams, text } from '../../../search-params';

// Typed URL search params of /admin/products, so a search, filter and page survive a reload and
// can be shared. A hand-edited or stale value falls back instead of failing the page.
export const productsSearchSchema = searchParams<{ search?: string; categoryId?: string; page?: number }>()((raw) => ({
  search: text(raw.search, 200),
  categoryId: id(raw.categoryId),
  page: pageNumber(raw.page),
}));
export type ProductsSearch = ReturnType<typeof productsSearchSchema>;

/** The admin.products.list input for these params. */
export const listInputOf = (search: ProductsSearch) => ({
  search: search.search || undefined,
  categoryId: search.categoryId,
  page: search.page ?? 1,
});
