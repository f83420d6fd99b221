import type { OutgoingEmail } from '../queue';
import { layout, textOf, type EmailBody, type StoreInfo } from './layout';

// Account and contact emails.

const passwordResetUrl = (store: StoreInfo, token: string) =>
  `${store.publicUrl}/reset-password?token=${encodeURIComponent(token)}&type=recovery`;

export function passwordResetEmail(store: StoreInfo, to: string, token: string): OutgoingEmail {
  const url = passwordResetUrl(store, token);
  const intro = `Someone asked to reset the password of your ${store.storeName} account.`;
  const outro = 'The link works once and expires in 1 hour. If you did not ask for this, ignore this email: your password stays as it is.';
  return {
    to,
    subject: `Reset your ${store.storeName} password`,
    text: `${intro}\n\nSet a new password here:\n${url}\n\n${outro}\n`,
    html: layout(store, { heading: 'Reset your password', paragraphs: [intro, outro], action: { label: 'Set a new password', url } }),
  };
}

/** `next`: the page the confirmed buyer goes back to (checked again by the page before it is followed). */
const confirmationUrl = (store: StoreInfo, token: string, returnTo: string | undefined) =>
  `${store.publicUrl}/confirm-email?token=${encodeURIComponent(token)}${returnTo ? `&next=${encodeURIComponent(returnTo)}` : ''}`;

export function emailConfirmationEmail(store: StoreInfo, to: string, token: string, returnTo?: string): OutgoingEmail {
  const url = confirmationUrl(store, token, returnTo);
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

/**
 * What a sign-up with an address that already has an account sends instead of a second account,
 * so only the inbox's owner learns that the account exists. An account not yet confirmed gets a
 * link to choose its password (`passwordToken`, a reset link), which confirms the address too:
 * whoever made the account may not own the address, and whoever signed up now may not either,
 * so the one who holds the inbox picks the password.
 */
export function existingAccountEmail(store: StoreInfo, to: string, passwordToken: string | null, returnTo?: string): OutgoingEmail {
  const signIn = { label: 'Sign in', url: `${store.publicUrl}/login${returnTo ? `?redirect=${encodeURIComponent(returnTo)}` : ''}` };
  const reset = { label: 'Reset your password', url: `${store.publicUrl}/login?mode=reset` };
  const body: EmailBody = {
    heading: 'You already have an account',
    paragraphs: [
      `Someone, probably you, tried to create a ${store.storeName} account with this email address. You already have one, so nothing new was created.`,
      ...(passwordToken
        ? [
            'Your email address is not confirmed yet. Choose your password with the link below: that confirms your address, signs out anyone else signed in to the account, and lets you sign in with the new password. The link works once and expires in 1 hour.',
          ]
        : ['You can sign in with your password, or reset your password if you have forgotten it.']),
      'If this was not you, ignore this email: your account stays as it is.',
    ],
    ...(passwordToken
      ? { action: { label: 'Choose your password', url: passwordResetUrl(store, passwordToken) }, links: [signIn] }
      : { action: signIn, links: [reset] }),
  };
  return { to, subject: `You already have a ${store.storeName} account`, text: textOf(body), html: layout(store, body) };
}

export function contactNotificationEmail(
  store: StoreInfo & { storeEmail: string },
  submission: { name: string; email: string; subject: string; message: string },
): OutgoingEmail {
  const lines = [`From: ${submission.name} <${submission.email}>`, `Subject: ${submission.subject}`, '', submission.message];
  return {
    to: store.storeEmail,
    replyTo: submission.email,
    subject: `New contact message: ${submission.subject}`,
    text: `${lines.join('\n')}\n`,
    html: layout(store, {
      heading: 'New contact message',
      paragraphs: lines.filter((line) => line !== ''),
      action: { label: 'Open the contact inbox', url: `${store.publicUrl}/admin/contact` },
    }),
  };
}
