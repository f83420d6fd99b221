import { DELETED_CUSTOMER, type PaymentProviderName, type ShippingAddress } from '../../../../shared/constants';

// Words for orders in the list and the detail modal.

export const PROVIDER_LABELS: Record<PaymentProviderName, string> = { manual: 'Manual payment', stripe: 'Card (Stripe)' };

export const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** The order's customer; all null once they erased their account. */
type OrderCustomer = { customer_first_name: string | null; customer_last_name: string | null; customer_email: string | null };

/** "Jane Rider", or null for a customer who has given no name (the email then stands alone, once). */
export const givenName = (order: OrderCustomer) => [order.customer_first_name, order.customer_last_name].filter(Boolean).join(' ') || null;

/** "Jane Rider" or, without a name, the email; "Deleted customer" for an erased account. */
export const customerName = (order: OrderCustomer) => givenName(order) ?? customerEmail(order);

export const customerEmail = (order: OrderCustomer) => order.customer_email ?? DELETED_CUSTOMER;

/** The address on one line, leaving out the parts it lacks (an erased customer's order keeps only its country). */
export const addressLine = (address: ShippingAddress) =>
  [address.street, address.city, [address.state, address.zip].filter(Boolean).join(' '), address.country].filter(Boolean).join(', ');
