import { z } from 'zod';
import { CONTACT_STATUSES, CONTACT_FILTERS, CUSTOMER_FILTERS } from '../constants';

// Inputs of the admin Customers and Contact submissions screens (docs/PRODUCT.md § Screens and States), shared by the
// procedures and the screens.

const userId = z.uuid({ error: 'Invalid user' });

export const CUSTOMERS_PAGE_SIZE = 25;
export const CONTACT_PAGE_SIZE = 20;

/** Page 1 to 100,000: a page past the end answers the last page; anything else is refused. */
const pageField = z.int({ error: 'Invalid page' }).min(1, { error: 'Invalid page' }).max(100_000, { error: 'Invalid page' }).default(1);

/** The users list's filter button, search text (email or name) and page; also the page's URL search params. */
export const customersListInput = z.object({
  filter: z.enum(CUSTOMER_FILTERS, { error: 'Invalid filter' }).default('all'),
  search: z.string({ error: 'Invalid search' }).trim().max(200, { error: 'Search must be at most 200 characters' }).optional(),
  page: pageField,
});
export type CustomersListInput = z.input<typeof customersListInput>;

export const addToCustomersInput = z.object({ userId });

/** A privacy request made for a customer: their data downloaded, or their account deleted. */
export const privacyRequestInput = z.object({ userId });
export const DOWNLOAD_DATA = 'Download data';
export const DELETE_ACCOUNT = 'Delete account';
/** The file an admin's Download data saves: the customer's address and the day. */
export const customerDataFileName = (email: string, day: string) => `customer-data-${email.replace(/[^A-Za-z0-9.@_-]/g, '_')}-${day}.json`;

/** Make Admin sends isAdmin true, Remove Admin false: the opposite of the current value (docs/PRODUCT.md § States). */
export const setAdminInput = z.object({
  userId,
  isAdmin: z.boolean({ error: 'isAdmin must be true or false' }),
});

/** Refusal when a demotion would leave the store without any admin. */
export const LAST_ADMIN_MESSAGE = 'Cannot remove the last admin';
/** Anyone can sign up with an address they do not own: only its confirmed owner may be an admin. */
export const UNCONFIRMED_ADMIN_MESSAGE =
  'This email address is not confirmed yet. Ask its owner to confirm it before making them an admin.';

const submissionId = z.uuid({ error: 'Invalid submission' });

export const contactListInput = z.object({
  status: z.enum(CONTACT_FILTERS, { error: 'Invalid status' }).default('all'),
  page: pageField,
});

export const contactOpenInput = z.object({ id: submissionId });

export const contactSetStatusInput = z.object({
  id: submissionId,
  status: z.enum(CONTACT_STATUSES, { error: 'Invalid status' }),
});
