import { formatMoney } from '../../../shared/money';
import { discountLine } from '../../../shared/schemas/discounts';
import type { ShippingAddress } from '../../../shared/constants';
import type { OutgoingEmail } from '../queue';
import { layout, textOf, type EmailBody, type StoreInfo } from './layout';

// The emails an order sends its customer; every subject names the order number.

export interface OrderForEmail {
  orderNumber: string;
  customerEmail: string;
  /** A guest order's key: its page opens with it, without an account. */
  accessKey: string | null;
  lines: { productName: string; colourName: string | null; size: string; quantity: number; totalPrice: string }[];
  subtotal: string;
  shippingCost: string;
  tax: string;
  /** The discount code applied and what it took off, goods and shipping. */
  discount: { code: string; amount: string } | null;
  total: string;
  shippingAddress: ShippingAddress;
}

const orderUrl = (store: StoreInfo, order: OrderForEmail) =>
  `${store.publicUrl}/orders/${order.orderNumber}${order.accessKey ? `?key=${encodeURIComponent(order.accessKey)}` : ''}`;

function summary(order: OrderForEmail): [string, string][] {
  return [
    ...order.lines.map((line): [string, string] => [
      `${line.productName} (${line.colourName ? `${line.colourName}, ` : ''}${line.size}) × ${line.quantity}`,
      formatMoney(line.totalPrice),
    ]),
    ['Subtotal', formatMoney(order.subtotal)],
    ['Shipping', Number(order.shippingCost) === 0 ? 'FREE' : formatMoney(order.shippingCost)],
    ...(Number(order.tax) > 0 ? [['Tax', formatMoney(order.tax)] as [string, string]] : []),
    ...(order.discount ? [discountLine(order.discount.code, order.discount.amount)] : []),
    ['Total', formatMoney(order.total)],
  ];
}

function addressLines({ name, street, city, state, zip, country }: ShippingAddress): string {
  return [name, street, `${city}, ${state} ${zip}`, country].filter(Boolean).join('\n');
}

function email(store: StoreInfo, order: OrderForEmail, subject: string, body: EmailBody): OutgoingEmail {
  return { to: order.customerEmail, subject, text: textOf(body), html: layout(store, body) };
}

const viewOrder = (store: StoreInfo, order: OrderForEmail) => ({ label: 'View your order', url: orderUrl(store, order) });

/** Sent when an order is placed to be paid by hand (with the instructions), or when a card payment completes it. */
export function orderConfirmationEmail(
  store: StoreInfo,
  order: OrderForEmail,
  payment: { paid: boolean; instructions: string },
): OutgoingEmail {
  const paymentNote = payment.paid
    ? ['Your payment has been received. We will print your order and let you know when it ships.']
    : [
        'Your order is reserved and will be printed once your payment arrives.',
        // A store that has not written its instructions yet: the buyer can still ask.
        payment.instructions.trim() ? `How to pay:\n${payment.instructions}` : 'Reply to this email to ask how to pay.',
      ];
  return email(store, order, `Order ${order.orderNumber} confirmed`, {
    heading: `Thank you for your order ${order.orderNumber}`,
    paragraphs: [`Thanks for shopping at ${store.storeName}!`, ...paymentNote],
    table: summary(order),
    after: [`Shipping to:\n${addressLines(order.shippingAddress)}`],
    action: viewOrder(store, order),
  });
}

export function paymentReceivedEmail(store: StoreInfo, order: OrderForEmail): OutgoingEmail {
  return email(store, order, `Payment received for order ${order.orderNumber}`, {
    heading: 'Payment received',
    paragraphs: [`We received your payment of ${formatMoney(order.total)} for order ${order.orderNumber}. Your tees go to print now.`],
    action: viewOrder(store, order),
  });
}

export function orderShippedEmail(store: StoreInfo, order: OrderForEmail, tracking: { number: string; url: string } | null): OutgoingEmail {
  return email(store, order, `Order ${order.orderNumber} has shipped`, {
    heading: 'Your order is on its way',
    paragraphs: [
      `Order ${order.orderNumber} has shipped to:\n${addressLines(order.shippingAddress)}`,
      tracking ? `Tracking number: ${tracking.number}` : 'It is on its way to you.',
    ],
    action: tracking ? { label: 'Track your package', url: tracking.url } : viewOrder(store, order),
  });
}

/** A tracking number given (or changed) after the order shipped: the customer can follow it now. */
export function orderTrackingEmail(store: StoreInfo, order: OrderForEmail, tracking: { number: string; url: string }): OutgoingEmail {
  return email(store, order, `Tracking number for order ${order.orderNumber}`, {
    heading: 'Follow your package',
    paragraphs: [`Order ${order.orderNumber} is on its way to you.`, `Tracking number: ${tracking.number}`],
    action: { label: 'Track your package', url: tracking.url },
  });
}

export function orderCancelledEmail(store: StoreInfo, order: OrderForEmail): OutgoingEmail {
  return email(store, order, `Order ${order.orderNumber} was cancelled`, {
    heading: 'Your order was cancelled',
    paragraphs: [`Order ${order.orderNumber} was cancelled and will not be shipped. Questions? Just reply to this email.`],
    action: viewOrder(store, order),
  });
}

export function orderRefundedEmail(store: StoreInfo, order: OrderForEmail): OutgoingEmail {
  return email(store, order, `Order ${order.orderNumber} refunded`, {
    heading: 'Your refund is on its way',
    paragraphs: [
      `We refunded ${formatMoney(order.total)} for order ${order.orderNumber}. It can take a few days to show on your statement.`,
    ],
    action: viewOrder(store, order),
  });
}
