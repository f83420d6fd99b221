import { DISCOUNT_FILTERS, type DiscountFilter } from '../../../../shared/schemas/admin-discounts';
import { oneOf, pageNumber, searchParams, text } from '../../../search-params';

// Typed URL search params of /admin/discounts, so a search, the status filter and the page survive
// a reload and can be shared. A hand-edited or stale value falls back instead of failing the page.
export const discountsSearchSchema = searchParams<{ search?: string; status?: DiscountFilter; page?: number }>()((raw) => ({
  search: text(raw.search, 200),
  status: oneOf(DISCOUNT_FILTERS, raw.status),
  page: pageNumber(raw.page),
}));
export type DiscountsSearch = ReturnType<typeof discountsSearchSchema>;

/** The admin.discounts.list input for these params. */
export const listInputOf = (search: DiscountsSearch) => ({
  search: search.search || undefined,
  status: search.status ?? 'all',
  page: search.page ?? 1,
});
