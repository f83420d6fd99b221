import { beforeEach, describe, expect, it } from 'vitest';
import type { ContactStatus } from '../../src/shared/constants';
import { callTrpc, sharedCallers, sharedEventHub, sharedTestApp } from '../support/app';
import { recordEvents, trpcFailure, waitFor } from '../support/async';

// admin.contact.*: the inbox list with its status filter and stat counts, opening a submission
// (a new one becomes read), status changes, and the event every admin's badge listens to.

const t = sharedTestApp();
const live = sharedEventHub(t);
// Signed in over HTTP too, for the refusals of bad input, which read the errorFormatter's message.
const as = sharedCallers(t, () => ({ events: live.hub }));

beforeEach(async () => {
  await t.db.deleteFrom('contact_submissions').execute();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function insertSubmission(subject: string, status: ContactStatus, createdAt: Date) {
  const row = await t.db
    .insertInto('contact_submissions')
    .values({ name: 'Pat Lee', email: 'pat@example.com', subject, message: `About ${subject}`, status, created_at: createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const statusInDb = async (id: string) =>
  (await t.db.selectFrom('contact_submissions').select('status').where('id', '=', id).executeTakeFirst())?.status;

describe('admin.contact.list', () => {
  it('lists submissions newest first with the stat counts, filtered by status on the server', async () => {
    await insertSubmission('Oldest', 'resolved', minutesAgo(300));
    await insertSubmission('Older', 'read', minutesAgo(200));
    await insertSubmission('Newer', 'new', minutesAgo(100));
    await insertSubmission('Newest', 'new', minutesAgo(1));

    const all = await as.admin.admin.contact.list({ status: 'all' });
    expect(all.submissions.map((s) => s.subject)).toEqual(['Newest', 'Newer', 'Older', 'Oldest']);
    expect(all.counts).toEqual({ total: 4, new: 2, read: 1, resolved: 1 });
    const { id, created_at: createdAt, ...fields } = all.submissions[0]!;
    expect(fields).toEqual({ name: 'Pat Lee', email: 'pat@example.com', subject: 'Newest', message: 'About Newest', status: 'new' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(createdAt)).toBeGreaterThan(Date.now() - 5 * 60_000);

    const onlyNew = await as.admin.admin.contact.list({ status: 'new' });
    expect(onlyNew.submissions.map((s) => s.subject)).toEqual(['Newest', 'Newer']);
    expect(onlyNew.counts.total).toBe(4);
    expect((await as.admin.admin.contact.list({ status: 'resolved' })).submissions.map((s) => s.subject)).toEqual(['Oldest']);
  });

  it('answers an empty inbox and refuses an unknown status', async () => {
    expect(await as.admin.admin.contact.list({ status: 'all' })).toEqual({
      submissions: [],
      counts: { total: 0, new: 0, read: 0, resolved: 0 },
    });
    const res = await callTrpc(t.app, 'admin.contact.list', { type: 'query', input: { status: 'archived' }, cookie: as.cookies.admin });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe('Invalid status');
  });
});

describe('admin.contact.open', () => {
  it('returns the submission and marks a new one read, telling every admin', async () => {
    const id = await insertSubmission('Sizing', 'new', minutesAgo(5));
    const recorder = recordEvents(live.hub);
    try {
      const opened = await as.admin.admin.contact.open({ id });
      expect(opened).toMatchObject({ id, subject: 'Sizing', message: 'About Sizing', status: 'read' });
      expect(await statusInDb(id)).toBe('read');
      await waitFor(() => recorder.events.length > 0, 'the contact_submissions_changed event');
      expect(recorder.events).toEqual([{ type: 'contact_submissions_changed' }]);
    } finally {
      recorder.stop();
    }
    expect(await as.admin.admin.contact.newCount()).toBe(0);
  });

  it('leaves a read or resolved submission as it is', async () => {
    const read = await insertSubmission('Read one', 'read', minutesAgo(5));
    const resolved = await insertSubmission('Done one', 'resolved', minutesAgo(6));
    expect((await as.admin.admin.contact.open({ id: read })).status).toBe('read');
    expect((await as.admin.admin.contact.open({ id: resolved })).status).toBe('resolved');
    expect(await statusInDb(resolved)).toBe('resolved');
  });

  it('refuses an unknown or malformed id', async () => {
    expect(await trpcFailure(as.admin.admin.contact.open({ id: crypto.randomUUID() }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Submission not found',
    });
    expect((await trpcFailure(as.admin.admin.contact.open({ id: 'abc' }))).code).toBe('BAD_REQUEST');
  });
});

describe('admin.contact.setStatus', () => {
  it('sets any status at any time and publishes the change', async () => {
    const id = await insertSubmission('Refund', 'resolved', minutesAgo(5));
    const recorder = recordEvents(live.hub);
    try {
      expect(await as.admin.admin.contact.setStatus({ id, status: 'new' })).toMatchObject({ id, status: 'new' });
      expect(await statusInDb(id)).toBe('new');
      expect(await as.admin.admin.contact.newCount()).toBe(1);
      expect((await as.admin.admin.contact.setStatus({ id, status: 'resolved' })).status).toBe('resolved');
      expect(await statusInDb(id)).toBe('resolved');
      await waitFor(() => recorder.events.length === 2, 'two events');
      expect(recorder.events).toEqual([{ type: 'contact_submissions_changed' }, { type: 'contact_submissions_changed' }]);
    } finally {
      recorder.stop();
    }
  });

  it('refuses an unknown submission or status, changing nothing', async () => {
    const id = await insertSubmission('Refund', 'read', minutesAgo(5));
    expect(await trpcFailure(as.admin.admin.contact.setStatus({ id: crypto.randomUUID(), status: 'resolved' }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Submission not found',
    });
    const res = await callTrpc(t.app, 'admin.contact.setStatus', { input: { id, status: 'spam' }, cookie: as.cookies.admin });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe('Invalid status');
    expect(await statusInDb(id)).toBe('read');
  });
});
