import { CONTACT_FILTERS, type ContactFilter } from '../../../../shared/constants';
import { oneOf, pageNumber, searchParams } from '../../../search-params';

// Typed URL search params of /admin/contact, so a status filter and page survive a reload and
// can be shared. A hand-edited or stale value falls back instead of failing the page.
export const contactSearchSchema = searchParams<{ status?: ContactFilter; page?: number }>()((raw) => ({
  status: oneOf(CONTACT_FILTERS, raw.status),
  page: pageNumber(raw.page),
}));
export type ContactSearch = ReturnType<typeof contactSearchSchema>;

/** The admin.contact.list input for these params. */
export const listInputOf = (search: ContactSearch) => ({ status: search.status ?? 'all', page: search.page ?? 1 });
