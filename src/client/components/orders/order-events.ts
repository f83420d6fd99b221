import type { OrderEventKind } from '../../../shared/constants';

/** What each step of an order's history is called, to its customer and in the back office alike. */
export const ORDER_EVENT_LABELS: Record<OrderEventKind, string> = {
  placed: 'Order placed',
  paid: 'Payment received',
  payment_failed: 'Payment did not go through',
  refunded: 'Refunded',
  pending: 'Back to pending',
  processing: 'Printing',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  sent_to_printer: 'Sent to Printful',
  confirmed_for_printing: 'Confirmed for printing',
  printer_needs_attention: 'Needs attention at Printful',
  printer_cancelled: 'Cancelled at Printful',
};
