import { CUSTOMER_FILTERS, type CustomerFilter } from '../../../../shared/constants';
import { oneOf, pageNumber, searchParams, text } from '../../../search-params';

// Typed URL search params of /admin/customers, so a filter button, search and page survive a
// reload and can be shared. A hand-edited or stale value falls back instead of failing the page.
export const customersSearchSchema = searchParams<{ filter?: CustomerFilter; search?: string; page?: number }>()((raw) => ({
  filter: oneOf(CUSTOMER_FILTERS, raw.filter),
  search: text(raw.search, 200),
  page: pageNumber(raw.page),
}));
export type CustomersSearch = ReturnType<typeof customersSearchSchema>;

/** The admin.customers.list input for these params. */
export const listInputOf = (search: CustomersSearch) => ({
  filter: search.filter ?? 'all',
  search: search.search || undefined,
  page: search.page ?? 1,
});
