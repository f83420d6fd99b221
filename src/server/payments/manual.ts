import { InvalidNotificationError, type PaymentProvider } from './provider';

/**
 * Paid by hand (bank transfer, cash): the buyer follows the store's payment instructions and an
 * admin marks the order paid. There is nobody to call and nothing to be notified by.
 */
export const manualPayments: PaymentProvider = {
  name: 'manual',
  subscriptions: null,
  startPayment: () => Promise.resolve(null),
  readNotification: () => Promise.reject(new InvalidNotificationError('Payments are taken by hand in this store')),
  // The money goes back the way it came; the store only records that it did.
  refund: () => Promise.resolve(),
  // There is no payment page to close.
  closePayment: () => Promise.resolve(),
};
