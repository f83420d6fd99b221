import { COLOUR_CHOICE_LABELS, type ColourChoice } from '../../../shared/constants';
import { formatCalendarDay } from '../../../shared/dates';
import type { OutgoingEmail } from '../queue';
import { layout, textOf, type EmailBody, type StoreInfo } from './layout';

// Short notes to a club member when their membership changes; every subject names the plan.

export interface MembershipForEmail {
  customerEmail: string;
  planName: string;
}

export type MembershipChange =
  | { kind: 'joined'; firstShipment: string }
  | { kind: 'skipped'; skipped: string; nextShipment: string }
  | { kind: 'paused'; resumesOn: string | null }
  | { kind: 'resumed'; nextShipment: string }
  | { kind: 'cancelling'; cancelsOn: string }
  /** A cancellation at the end of the paid period taken back by the member before that day. */
  | { kind: 'kept' }
  | { kind: 'changed' }
  /** A cycle order paid by hand is still waiting; the last reminder puts shipments on hold. */
  | { kind: 'payment_reminder'; orderNumber: string; total: string; reminder: number; lastReminder: boolean; instructions: string }
  | { kind: 'payment_failed'; payUrl: string | null }
  | { kind: 'ended_unpaid' }
  | { kind: 'ended' };

type Content = { subject: string; body: Omit<EmailBody, 'action'>; action?: EmailBody['action'] };

function content(change: MembershipChange, planName: string): Content {
  switch (change.kind) {
    case 'joined':
      return {
        subject: `Welcome to ${planName}`,
        body: {
          heading: 'Welcome to the club',
          paragraphs: [
            `Your first shirt of ${planName} is on its way to print; it ships around ${formatCalendarDay(change.firstShipment)}.`,
          ],
        },
      };
    case 'skipped':
      return {
        subject: `${planName}: shipment of ${formatCalendarDay(change.skipped)} skipped`,
        body: {
          heading: 'Next shipment skipped',
          paragraphs: [
            `We will not send a shirt on ${formatCalendarDay(change.skipped)}. Your next shipment is ${formatCalendarDay(change.nextShipment)}.`,
          ],
        },
      };
    case 'paused':
      return {
        subject: `${planName} paused`,
        body: {
          heading: 'Membership paused',
          paragraphs: [
            change.resumesOn
              ? `No shirts until ${formatCalendarDay(change.resumesOn)}, when your membership resumes by itself.`
              : 'No shirts until you resume your membership on your subscription page.',
          ],
        },
      };
    case 'resumed':
      return {
        subject: `${planName} resumed`,
        body: { heading: 'Welcome back', paragraphs: [`Your next shipment is ${formatCalendarDay(change.nextShipment)}.`] },
      };
    case 'cancelling':
      return {
        subject: `${planName} cancelled`,
        body: {
          heading: 'Sorry to see you go',
          paragraphs: [`Your membership ends on ${formatCalendarDay(change.cancelsOn)}; nothing more ships or is charged after that.`],
        },
      };
    case 'kept':
      return {
        subject: `${planName}: your membership continues`,
        body: {
          heading: 'Glad you are staying',
          paragraphs: ['Your membership is no longer set to end; it carries on as before, with the same size and categories.'],
        },
      };
    case 'changed':
      return {
        subject: `${planName}: your choices were saved`,
        body: { heading: 'Choices saved', paragraphs: ['Your next shirts follow your new size and categories.'] },
      };
    case 'payment_reminder':
      return {
        subject: `Reminder: order #${change.orderNumber} of ${planName} is waiting for payment`,
        body: {
          heading: 'Payment reminder',
          paragraphs: [
            `We have not received the payment of $${change.total} for order #${change.orderNumber} yet.`,
            ...(change.instructions ? [change.instructions] : []),
            change.lastReminder
              ? 'This is our last reminder: your shipments are on hold until the payment arrives.'
              : `This is reminder ${change.reminder}; your shirt ships once the payment arrives.`,
          ],
        },
      };
    case 'payment_failed':
      return {
        subject: `${planName}: your payment did not go through`,
        body: {
          heading: 'Payment failed',
          paragraphs: ['We could not charge your card for your next shirt. Please pay the invoice to keep your membership going.'],
        },
        ...(change.payUrl ? { action: { label: 'Pay invoice', url: change.payUrl } } : {}),
      };
    case 'ended_unpaid':
      return {
        subject: `${planName} cancelled: payment not received`,
        body: {
          heading: 'Membership cancelled',
          paragraphs: ['We tried your card several times without success, so your membership has ended. You are welcome to join again.'],
        },
      };
    case 'ended':
      return {
        subject: `${planName} has ended`,
        body: { heading: 'Membership ended', paragraphs: ['Your membership has ended; nothing more ships or is charged.'] },
      };
  }
}

export function membershipEmail(store: StoreInfo, member: MembershipForEmail, change: MembershipChange): OutgoingEmail {
  const { subject, body, action } = content(change, member.planName);
  const full: EmailBody = { ...body, action: action ?? { label: 'Your subscription', url: `${store.publicUrl}/subscription` } };
  return { to: member.customerEmail, subject, text: textOf(full), html: layout(store, full) };
}

/**
 * To the store: a club cycle's order was placed with no shirt in it, since no active shirt is made
 * in the member's size. Its buyer was charged, or will be asked to pay; the admin decides.
 */
export function cycleOrderWithoutShirtEmail(
  store: StoreInfo & { storeEmail: string },
  order: { orderNumber: string; planName: string; size: string; colourChoice: ColourChoice; paid: boolean },
): OutgoingEmail {
  const wanted =
    order.colourChoice === 'any' ? `size ${order.size}` : `size ${order.size} in ${COLOUR_CHOICE_LABELS[order.colourChoice].toLowerCase()}`;
  const that = order.colourChoice === 'any' ? 'that size' : 'that size and colour';
  const body: EmailBody = {
    heading: 'A club order has no shirt',
    paragraphs: [
      `No active shirt is made in ${wanted}, so order ${order.orderNumber} of ${order.planName} was placed with no shirt in it.`,
      order.paid
        ? `It is paid. Make a shirt in ${that} available and send it by hand, or cancel the order and refund it.`
        : `It is not paid yet. Make a shirt in ${that} available and send it by hand, or cancel the order.`,
    ],
    action: { label: 'Open the orders', url: `${store.publicUrl}/admin/orders` },
  };
  return { to: store.storeEmail, subject: `Club order ${order.orderNumber} has no shirt`, text: textOf(body), html: layout(store, body) };
}
