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
  | { kind: 'changed' };

function content(change: MembershipChange, planName: string): { subject: string; body: Omit<EmailBody, 'action'> } {
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
    case 'changed':
      return {
        subject: `${planName}: your choices were saved`,
        body: { heading: 'Choices saved', paragraphs: ['Your next shirts follow your new size and categories.'] },
      };
  }
}

export function membershipEmail(store: StoreInfo, member: MembershipForEmail, change: MembershipChange): OutgoingEmail {
  const { subject, body } = content(change, member.planName);
  const full: EmailBody = { ...body, action: { label: 'Your subscription', url: `${store.publicUrl}/subscription` } };
  return { to: member.customerEmail, subject, text: textOf(full), html: layout(store, full) };
}
