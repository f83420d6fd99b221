import { beforeEach, describe, expect, it } from 'vitest';
import type { ContactStatus } from '../../src/shared/constants';
import { CONTACT_PAGE_SIZE } from '../../src/shared/schemas/admin-people';
import { callTrpc, sharedCallers, sharedEventHub, sharedTestApp } from '../support/app';
import { recordEvents, trpcFailure, waitFor } from '../support/async';

// admin.contact.*: the inbox list, paged on the server, with its status filter and stat counts, opening a submission
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
    expect(all.items.map((s) => s.subject)).toEqual(['Newest', 'Newer', 'Older', 'Oldest']);
    expect(all.counts).toEqual({ total: 4, new: 2, read: 1, resolved: 1 });
    const { id, created_at: createdAt, ...fields } = all.items[0]!;
    expect(fields).toEqual({ name: 'Pat Lee', email: 'pat@example.com', subject: 'Newest', message: 'About Newest', status: 'new' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(createdAt)).toBeGreaterThan(Date.now() - 5 * 60_000);

    const onlyNew = await as.admin.admin.contact.list({ status: 'new' });
    expect(onlyNew.items.map((s) => s.subject)).toEqual(['Newest', 'Newer']);
    expect(onlyNew.counts.total).toBe(4);
    expect((await as.admin.admin.contact.list({ status: 'resolved' })).items.map((s) => s.subject)).toEqual(['Oldest']);
  });

  it('answers an empty inbox and refuses an unknown status', async () => {
    expect(await as.admin.admin.contact.list({ status: 'all' })).toEqual({
      items: [],
      total: 0,
      page: 1,
      pageCount: 1,
      pageSize: CONTACT_PAGE_SIZE,
      counts: { total: 0, new: 0, read: 0, resolved: 0 },
    });
    const res = await callTrpc(t.app, 'admin.contact.list', { type: 'query', input: { status: 'archived' }, cookie: as.cookies.admin });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe('Invalid status');
  });
});

/** `count` submissions in one statement, a minute apart (the first newest), statuses new, read, resolved in turn. */
async function insertManySubmissions(count: number) {
  const statuses = ['new', 'read', 'resolved'] as const;
  await t.db
    .insertInto('contact_submissions')
    .values(
      Array.from({ length: count }, (_, n) => ({
        name: `Sender ${n}`,
        email: `sender${n}@example.com`,
        subject: `Subject ${n}`,
        message: 'Hello',
        status: statuses[n % 3],
        created_at: minutesAgo(n + 1),
      })),
    )
    .execute();
}

describe('admin.contact.list paging', () => {
  it('pages the inbox newest first, every submission once, with stat counts of the whole inbox', async () => {
    const count = 2 * CONTACT_PAGE_SIZE + 5;
    await insertManySubmissions(count);
    // Two at the very same moment still page in a fixed order (the id breaks the tie).
    const sameMoment = minutesAgo(30);
    await insertSubmission('Tie A', 'new', sameMoment);
    await insertSubmission('Tie B', 'new', sameMoment);
    const inOrder = (
      await t.db.selectFrom('contact_submissions').select('subject').orderBy('created_at', 'desc').orderBy('id').execute()
    ).map((row) => row.subject);

    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await as.admin.admin.contact.list({ status: 'all', page }));
    expect(pages.map((p) => p.items.length)).toEqual([CONTACT_PAGE_SIZE, CONTACT_PAGE_SIZE, count + 2 - 2 * CONTACT_PAGE_SIZE]);
    expect(pages.flatMap((p) => p.items.map((s) => s.subject))).toEqual(inOrder);
    const counts = { total: count + 2, new: 15 + 2, read: 15, resolved: 15 };
    expect(pages[1]).toMatchObject({ page: 2, pageCount: 3, total: count + 2, pageSize: CONTACT_PAGE_SIZE, counts });

    // One status pages its own submissions; the tiles still count the whole inbox.
    const read1 = await as.admin.admin.contact.list({ status: 'read' });
    expect(read1).toMatchObject({ total: 15, page: 1, pageCount: 1, counts });
    expect(read1.items.map((s) => s.subject)).toEqual(inOrder.filter((subject) => Number(subject.split(' ')[1]) % 3 === 1));
    const new1 = await as.admin.admin.contact.list({ status: 'new', page: 1 });
    expect(new1.items.every((s) => s.status === 'new')).toBe(true);
    expect(new1.items).toHaveLength(17);
  });

  it('keeps the admin badge a count of every new submission, not of a page', async () => {
    await insertManySubmissions(3 * CONTACT_PAGE_SIZE);
    expect(await as.admin.admin.contact.newCount()).toBe(CONTACT_PAGE_SIZE);
    const firstPage = await as.admin.admin.contact.list({ status: 'new' });
    await as.admin.admin.contact.open({ id: firstPage.items[0]!.id });
    expect(await as.admin.admin.contact.newCount()).toBe(CONTACT_PAGE_SIZE - 1);
    expect((await as.admin.admin.contact.list({ status: 'all', page: 3 })).counts.new).toBe(CONTACT_PAGE_SIZE - 1);
  });

  it('answers a page past the end with the last page, and refuses bad pages', async () => {
    await insertManySubmissions(CONTACT_PAGE_SIZE + 1);
    const past = await as.admin.admin.contact.list({ status: 'all', page: 50 });
    expect(past).toMatchObject({ page: 2, pageCount: 2 });
    expect(past.items.map((s) => s.subject)).toEqual([`Subject ${CONTACT_PAGE_SIZE}`]);
    expect(await as.admin.admin.contact.list({ status: 'resolved', page: 3 })).toMatchObject({ page: 1, pageCount: 1, total: 7 });
    for (const page of [0, 2.5, 100_001, 1e300]) {
      const res = await callTrpc(t.app, 'admin.contact.list', { type: 'query', input: { page }, cookie: as.cookies.admin });
      expect(res.statusCode).toBe(400);
      expect(res.error?.message).toBe('Invalid page');
    }
  });

  it('is for admins only', async () => {
    expect((await trpcFailure(as.customer.admin.contact.list({}))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as.anonymous.admin.contact.list({}))).code).toBe('UNAUTHORIZED');
    expect((await trpcFailure(as.customer.admin.contact.newCount())).code).toBe('FORBIDDEN');
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
