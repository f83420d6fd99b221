import type { OutgoingEmail } from '../queue';
import { layout, type StoreInfo } from './layout';

// Account and contact emails.

export function passwordResetEmail(store: StoreInfo, to: string, token: string): OutgoingEmail {
  const url = `${store.publicUrl}/reset-password?token=${encodeURIComponent(token)}&type=recovery`;
  const intro = `Someone asked to reset the password of your ${store.storeName} account.`;
  const outro = 'The link works once and expires in 1 hour. If you did not ask for this, ignore this email: your password stays as it is.';
  return {
    to,
    subject: `Reset your ${store.storeName} password`,
    text: `${intro}\n\nSet a new password here:\n${url}\n\n${outro}\n`,
    html: layout(store, { heading: 'Reset your password', paragraphs: [intro, outro], action: { label: 'Set a new password', url } }),
  };
}

export function emailConfirmationEmail(store: StoreInfo, to: string, token: string): OutgoingEmail {
  const url = `${store.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  const intro = `Welcome to ${store.storeName}! Please confirm your email address.`;
  return {
    to,
    subject: `Confirm your email for ${store.storeName}`,
    text: `${intro}\n\nConfirm it here:\n${url}\n\nIf you did not create an account, ignore this email.\n`,
    html: layout(store, {
      heading: 'Confirm your email',
      paragraphs: [intro, 'If you did not create an account, ignore this email.'],
      action: { label: 'Confirm my email', url },
    }),
  };
}

export function contactNotificationEmail(
  store: StoreInfo & { storeEmail: string },
  submission: { name: string; email: string; subject: string; message: string },
): OutgoingEmail {
  const lines = [`From: ${submission.name} <${submission.email}>`, `Subject: ${submission.subject}`, '', submission.message];
  return {
    to: store.storeEmail,
    subject: `New contact message: ${submission.subject}`,
    text: `${lines.join('\n')}\n`,
    html: layout(store, {
      heading: 'New contact message',
      paragraphs: lines.filter((line) => line !== ''),
      action: { label: 'Open the contact inbox', url: `${store.publicUrl}/admin/contact` },
    }),
  };
}
