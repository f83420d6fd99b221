import { expect } from 'vitest';
import type { Db } from '../../src/server/db/database';

/** What the subjects of the emails a sign-up sends contain: the confirmation, or the note to a known address. */
export const CONFIRMATION_SUBJECT = 'Confirm your email';
export const EXISTING_ACCOUNT_SUBJECT = 'You already have a';

/**
 * The newest queued email to `to` whose subject contains `subject`, waiting for it: some emails
 * are queued after the request that causes them has answered (reset requests).
 */
export async function queuedEmail(db: Db, to: string, subject: string) {
  const find = () =>
    db
      .selectFrom('email_queue')
      .select(['subject', 'text_body'])
      .where('to_email', '=', to)
      .where('subject', 'like', `%${subject}%`)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  await expect.poll(find, { timeout: 5000 }).toBeDefined();
  return (await find())!;
}

/** The first link in that email. */
export async function queuedEmailLink(db: Db, to: string, subject: string): Promise<string> {
  const email = await queuedEmail(db, to, subject);
  const link = /https?:\/\/\S+/.exec(email.text_body)?.[0];
  if (!link) throw new Error(`no link in the email "${email.subject}"`);
  return link;
}
