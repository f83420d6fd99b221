import type { Db } from '../db/database';

export interface OutgoingEmail {
  to: string;
  /** Where replies go, when not to the store. */
  replyTo?: string | undefined;
  subject: string;
  text: string;
  html?: string | undefined;
}

/**
 * Queues an email. Pass the caller's transaction, so the email exists exactly when the change
 * that caused it commits; the processor sends it later.
 */
export async function enqueueEmail(db: Db, email: OutgoingEmail, maxRetries: number): Promise<string> {
  const row = await db
    .insertInto('email_queue')
    .values({
      to_email: email.to,
      reply_to: email.replyTo ?? null,
      subject: email.subject,
      text_body: email.text,
      html_body: email.html ?? null,
      max_retries: maxRetries,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
