import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTrpc, createTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ STORE_EMAIL: 'owner@tees.example', AUTH_RATE_LIMIT_PER_MINUTE: '4' });
});
afterAll(() => t.close());

const message = { name: 'Dana Rider', email: 'dana@example.com', subject: 'Sizing', message: 'Do the tees run small?' };

describe('contact form', () => {
  it('stores the message as new and queues a notification to the store address', async () => {
    const res = await callTrpc<{ id: string }>(t.app, 'contact.submit', { input: message });
    expect(res.statusCode).toBe(200);
    const stored = await t.db.selectFrom('contact_submissions').selectAll().where('id', '=', res.data!.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ ...message, status: 'new' });
    const email = await t.db.selectFrom('email_queue').selectAll().where('to_email', '=', 'owner@tees.example').executeTakeFirstOrThrow();
    expect(email.subject).toBe('New contact message: Sizing');
    // Pressing Reply answers the sender, not the store's own address.
    expect(email.reply_to).toBe('dana@example.com');
    expect(email.text_body).toContain('Dana Rider <dana@example.com>');
    expect(email.text_body).toContain('Do the tees run small?');
  });

  it('requires every field, says which, and stores nothing', async () => {
    const before = await t.db.selectFrom('contact_submissions').select('id').execute();
    const res = await callTrpc(t.app, 'contact.submit', { input: { ...message, subject: '   ', email: 'not-an-email' } });
    expect(res.statusCode).toBe(400);
    expect(res.error?.data.fieldErrors).toMatchObject({ subject: ['Subject is required'], email: ['Please enter a valid email address'] });
    expect(await t.db.selectFrom('contact_submissions').select('id').execute()).toHaveLength(before.length);
  });

  it('still succeeds when the notification cannot be queued', async () => {
    await sql`ALTER TABLE email_queue RENAME TO email_queue_unavailable`.execute(t.db);
    try {
      const res = await callTrpc<{ id: string }>(t.app, 'contact.submit', { input: { ...message, subject: 'Queue down' } });
      expect(res.statusCode).toBe(200);
      expect(await t.db.selectFrom('contact_submissions').select('subject').where('id', '=', res.data!.id).executeTakeFirst()).toEqual({
        subject: 'Queue down',
      });
    } finally {
      await sql`ALTER TABLE email_queue_unavailable RENAME TO email_queue`.execute(t.db);
    }
  });

  it('is rate-limited per IP', async () => {
    // Three calls above used the budget of 4 (the invalid one counts too); the fourth passes, the fifth is refused.
    expect((await callTrpc(t.app, 'contact.submit', { input: message })).statusCode).toBe(200);
    const blocked = await callTrpc(t.app, 'contact.submit', { input: message });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.error?.message).toBe('Too many attempts. Please wait a minute and try again.');
  });
});
