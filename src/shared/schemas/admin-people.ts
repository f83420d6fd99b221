import { z } from 'zod';
import { CONTACT_STATUSES } from '../constants';

// Inputs of the admin Customers and Contact submissions screens (SPEC §2, §4), shared by the
// procedures and the screens.

/** The Customers screen's filter buttons: All, Confirmed, Unconfirmed, Not in Customers. */
export const CUSTOMER_FILTERS = ['all', 'confirmed', 'unconfirmed', 'not_in_customers'] as const;
export type CustomerFilter = (typeof CUSTOMER_FILTERS)[number];

const userId = z.uuid({ error: 'Invalid user' });

export const customersListInput = z.object({
  filter: z.enum(CUSTOMER_FILTERS, { error: 'Invalid filter' }).default('all'),
});
export type CustomersListInput = z.input<typeof customersListInput>;

export const addToCustomersInput = z.object({ userId });

/** Make Admin sends isAdmin true, Remove Admin false: the opposite of the current value (SPEC §4). */
export const setAdminInput = z.object({
  userId,
  isAdmin: z.boolean({ error: 'isAdmin must be true or false' }),
});

/** Refusal when a demotion would leave the store without any admin. */
export const LAST_ADMIN_MESSAGE = 'Cannot remove the last admin';

/** The contact screen's status dropdown: All Submissions or one status. */
export const CONTACT_FILTERS = ['all', ...CONTACT_STATUSES] as const;
export type ContactFilter = (typeof CONTACT_FILTERS)[number];

const submissionId = z.uuid({ error: 'Invalid submission' });

export const contactListInput = z.object({
  status: z.enum(CONTACT_FILTERS, { error: 'Invalid status' }).default('all'),
});

export const contactOpenInput = z.object({ id: submissionId });

export const contactSetStatusInput = z.object({
  id: submissionId,
  status: z.enum(CONTACT_STATUSES, { error: 'Invalid status' }),
});
