import type { PaymentProviderName } from '../../../../shared/constants';

// Words for orders in the list and the detail modal.

export const PROVIDER_LABELS: Record<PaymentProviderName, string> = { manual: 'Manual payment', stripe: 'Card (Stripe)' };

export const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

type OrderCustomer = { customer_first_name: string; customer_last_name: string; customer_email: string };

/** "Jane Rider", or null for a customer who has given no name (the email then stands alone, once). */
export const givenName = (order: OrderCustomer) => [order.customer_first_name, order.customer_last_name].filter(Boolean).join(' ') || null;

/** "Jane Rider" or, without a name, the email. */
export const customerName = (order: OrderCustomer) => givenName(order) ?? order.customer_email;
