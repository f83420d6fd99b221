import type { OutgoingEmail } from '../queue';

// Transactional emails: plain text first (what every client shows), with a simple HTML twin.

interface StoreInfo {
  storeName: string;
  publicUrl: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(store: StoreInfo, heading: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#111827;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>${body}${button}
<p style="color:#6b7280;font-size:12px">${escapeHtml(store.storeName)} · ${escapeHtml(store.publicUrl)}</p></body></html>`;
}

export function passwordResetEmail(store: StoreInfo, to: string, token: string): OutgoingEmail {
  const url = `${store.publicUrl}/reset-password?token=${encodeURIComponent(token)}&type=recovery`;
  const intro = `Someone asked to reset the password of your ${store.storeName} account.`;
  const outro = 'The link works once and expires in 1 hour. If you did not ask for this, ignore this email: your password stays as it is.';
  return {
    to,
    subject: `Reset your ${store.storeName} password`,
    text: `${intro}\n\nSet a new password here:\n${url}\n\n${outro}\n`,
    html: layout(store, 'Reset your password', [intro, outro], { label: 'Set a new password', url }),
  };
}

export function emailConfirmationEmail(store: StoreInfo, to: string, token: string): OutgoingEmail {
  const url = `${store.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  const intro = `Welcome to ${store.storeName}! Please confirm your email address.`;
  return {
    to,
    subject: `Confirm your email for ${store.storeName}`,
    text: `${intro}\n\nConfirm it here:\n${url}\n\nIf you did not create an account, ignore this email.\n`,
    html: layout(store, 'Confirm your email', [intro, 'If you did not create an account, ignore this email.'], {
      label: 'Confirm my email',
      url,
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
    html: layout(store, 'New contact message', lines.filter((line) => line !== ''), {
      label: 'Open the contact inbox',
      url: `${store.publicUrl}/admin/contact`,
    }),
  };
}
