import type { BillingInterval } from '../../../../shared/constants';
import { formatMoney } from '../../../../shared/money';
import { ADMIN_INTERVAL_LABELS } from '../../../../shared/schemas/admin-plans';

// Words for members in the list and the detail modal.

/** The next shipment of a member paused with no end date. */
export const UNTIL_RESUMED = 'Until resumed';

/** What the member pays, as the admin shows plan prices: "$29.00/mo". */
export const planPrice = (member: { price: string; billing_interval: BillingInterval }) =>
  `${formatMoney(member.price)}/${ADMIN_INTERVAL_LABELS[member.billing_interval]}`;
