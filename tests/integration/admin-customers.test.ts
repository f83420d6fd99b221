import type { TRPCError } from '@trpc/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { createOrPromoteAdmin } from '../../src/server/auth/admin';
import { countRows } from '../../src/server/db/count';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { ADMIN_REQUIRED } from '../../src/server/trpc/init';
import { CUSTOMERS_PAGE_SIZE, LAST_ADMIN_MESSAGE, UNCONFIRMED_ADMIN_MESSAGE } from '../../src/shared/schemas/admin-people';
import { callerFor, callTrpc, sharedEventHub, sharedTestApp } from '../support/app';
import { recordEvents, trpcFailure, waitFor } from '../support/async';
import { createAdmin, createCustomer } from '../support/factories';

// admin.customers.*: the users list, paged on the server, with its filters, search and counts,
// Add to Customers, Make Admin and
// Remove Admin, and the rule that the store never loses its last admin, not even to two
// demotions at the same moment.

const t = sharedTestApp();
const live = sharedEventHub(t);

// Each test starts from no users at all.
beforeEach(async () => {
  await t.db.deleteFrom('users').execute();
});

const asUser = (id: string, email: string, database: DatabaseHandle = t.database) =>
  callerFor(database, t.config, { id, email }, { events: live.hub }).caller;

async function newAdmin(email: string) {
  const id = (await createAdmin(t.db, { email, password: 'adminpass1' })).id;
  return { id, email, caller: asUser(id, email) };
}

/** A user with no customers row (as after a sign-up whose customer record is missing). */
async function insertBareUser(email: string, options: { confirmed: boolean; lastSignIn?: Date; createdAt?: Date }) {
  const row = await t.db
    .insertInto('users')
    .values({
      email,
      password_hash: 'not-a-real-hash',
      email_confirmed_at: options.confirmed ? new Date() : null,
      last_sign_in_at: options.lastSignIn ?? null,
      ...(options.createdAt ? { created_at: options.createdAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const isAdminInDb = async (id: string) =>
  (await t.db.selectFrom('customers').select('is_admin').where('id', '=', id).executeTakeFirst())?.is_admin;

const adminCount = () => countRows(t.db.selectFrom('customers').where('is_admin', '=', true));

describe('admin.customers.list', () => {
  it('lists every user with their customer record, newest first, filtered and counted on the server', async () => {
    const admin = await newAdmin('boss@example.com');
    await t.db.updateTable('customers').set({ first_name: 'Ada', last_name: 'Boss' }).where('id', '=', admin.id).execute();
    const customerId = (await createCustomer(t.db, { email: 'nameless@example.com' })).id;
    const hour = 3_600_000;
    const unconfirmedId = await insertBareUser('fresh@example.com', { confirmed: false, createdAt: new Date(Date.now() + hour) });
    const lastSignIn = new Date('2026-11-21T15:30:00Z');
    const bareConfirmedId = await insertBareUser('bare@example.com', {
      confirmed: true,
      lastSignIn,
      createdAt: new Date(Date.now() + 2 * hour),
    });

    const all = await admin.caller.admin.customers.list({ filter: 'all' });
    expect(all.counts).toEqual({ all: 4, confirmed: 3, unconfirmed: 1, not_in_customers: 2 });
    expect(all.items.map((u) => u.email)).toEqual(['bare@example.com', 'fresh@example.com', 'nameless@example.com', 'boss@example.com']);
    expect(all.items.find((u) => u.id === admin.id)).toMatchObject({
      has_customer_record: true,
      customer_data: { full_name: 'Ada Boss', is_admin: true },
      last_sign_in_at: null,
    });
    expect(all.items.find((u) => u.id === unconfirmedId)?.email_confirmed_at).toBeNull();
    expect(Date.parse(all.items.find((u) => u.id === admin.id)?.email_confirmed_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(all.items.find((u) => u.id === customerId)).toMatchObject({
      has_customer_record: true,
      customer_data: { full_name: null, is_admin: false },
    });
    expect(all.items.find((u) => u.id === bareConfirmedId)).toMatchObject({
      has_customer_record: false,
      customer_data: null,
      last_sign_in_at: lastSignIn.toISOString(),
    });
    // Nothing secret leaves the server.
    expect(JSON.stringify(all)).not.toMatch(/password|hash/i);

    const ids = async (filter: 'confirmed' | 'unconfirmed' | 'not_in_customers') =>
      (await admin.caller.admin.customers.list({ filter })).items.map((u) => u.id).sort();
    expect(await ids('confirmed')).toEqual([admin.id, customerId, bareConfirmedId].sort());
    expect(await ids('unconfirmed')).toEqual([unconfirmedId]);
    expect(await ids('not_in_customers')).toEqual([unconfirmedId, bareConfirmedId].sort());
    // The counts are of all users, whatever the filter.
    expect((await admin.caller.admin.customers.list({ filter: 'unconfirmed' })).counts.all).toBe(4);
  });

  it('answers an empty filter with no users, and refuses an unknown filter', async () => {
    const admin = await newAdmin('boss@example.com');
    expect((await admin.caller.admin.customers.list({ filter: 'not_in_customers' })).items).toEqual([]);
    const res = await callTrpc(t.app, 'admin.customers.list', {
      type: 'query',
      input: { filter: 'everyone' },
      cookie: await signIn(admin.email),
    });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe('Invalid filter');
  });
});

/**
 * `count` users straight into the database in one statement, a minute apart (the first newest),
 * every third unconfirmed, every other one with a customer record named "Person <n>".
 */
async function insertManyUsers(count: number, start = Date.now() - 60_000) {
  const users = await t.db
    .insertInto('users')
    .values(
      Array.from({ length: count }, (_, n) => ({
        email: `user${String(n).padStart(3, '0')}@example.com`,
        password_hash: 'not-a-real-hash',
        email_confirmed_at: n % 3 === 0 ? null : new Date(),
        created_at: new Date(start - n * 60_000),
      })),
    )
    .returning(['id', 'email'])
    .execute();
  const named = users.filter((_, n) => n % 2 === 0);
  await t.db
    .insertInto('customers')
    .values(named.map((user) => ({ id: user.id, email: user.email, first_name: 'Person', last_name: user.email.slice(4, 7) })))
    .execute();
  return users;
}

/** Every user's email in the list's order (newest first, id as tie-break), straight from the database. */
const emailsInOrder = async () =>
  (await t.db.selectFrom('users').select('email').orderBy('created_at', 'desc').orderBy('id').execute()).map((row) => row.email);

describe('admin.customers.list paging', () => {
  it('pages users newest first, every user once, with the totals of the filter and the counts of every user', async () => {
    const admin = await newAdmin('boss@example.com');
    const count = 2 * CUSTOMERS_PAGE_SIZE + 7;
    await insertManyUsers(count);
    // Users created at the very same moment still page in a fixed order (the id breaks the tie).
    const sameMoment = new Date('2020-01-01T00:00:00Z');
    await t.db
      .insertInto('users')
      .values(['tie1', 'tie2', 'tie3'].map((name) => ({ email: `${name}@example.com`, password_hash: 'x', created_at: sameMoment })))
      .execute();
    const everyone = await emailsInOrder();
    expect(everyone).toHaveLength(count + 4);

    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await admin.caller.admin.customers.list({ page }));
    expect(pages.map((p) => p.items.length)).toEqual([CUSTOMERS_PAGE_SIZE, CUSTOMERS_PAGE_SIZE, count + 4 - 2 * CUSTOMERS_PAGE_SIZE]);
    expect(pages.flatMap((p) => p.items.map((u) => u.email))).toEqual(everyone);
    expect(pages[1]).toMatchObject({ page: 2, pageSize: CUSTOMERS_PAGE_SIZE, pageCount: 3, total: count + 4 });
    const unconfirmed = everyone.length - (await countRows(t.db.selectFrom('users').where('email_confirmed_at', 'is not', null)));
    const notInCustomers = everyone.length - (await countRows(t.db.selectFrom('customers')));
    const counts = { all: count + 4, confirmed: count + 4 - unconfirmed, unconfirmed, not_in_customers: notInCustomers };
    expect(pages[2]?.counts).toEqual(counts);

    // A filter pages its own users; the buttons still count every user.
    const firstUnconfirmed = await admin.caller.admin.customers.list({ filter: 'unconfirmed' });
    expect(firstUnconfirmed).toMatchObject({ total: unconfirmed, pageCount: Math.ceil(unconfirmed / CUSTOMERS_PAGE_SIZE), counts });
    expect(firstUnconfirmed.items.every((u) => u.email_confirmed_at === null)).toBe(true);
    const secondNotIn = await admin.caller.admin.customers.list({ filter: 'not_in_customers', page: 2 });
    expect(secondNotIn.items.every((u) => !u.has_customer_record)).toBe(true);
    expect(secondNotIn.items.map((u) => u.email)).toEqual(
      (
        await t.db
          .selectFrom('users')
          .leftJoin('customers', 'customers.id', 'users.id')
          .select('users.email')
          .where('customers.id', 'is', null)
          .orderBy('users.created_at', 'desc')
          .orderBy('users.id')
          .offset(CUSTOMERS_PAGE_SIZE)
          .limit(CUSTOMERS_PAGE_SIZE)
          .execute()
      ).map((row) => row.email),
    );
  });

  it('answers a page past the end with the last page, and refuses page 0, fractions and huge pages', async () => {
    const admin = await newAdmin('boss@example.com');
    await insertManyUsers(CUSTOMERS_PAGE_SIZE + 3);
    const last = await admin.caller.admin.customers.list({ page: 2 });
    const past = await admin.caller.admin.customers.list({ page: 9 });
    expect(past).toEqual(last);
    expect(past).toMatchObject({ page: 2, pageCount: 2 });
    expect(past.items).toHaveLength(4);
    // A filter with nobody in it: page 1 of 1, empty.
    await t.db.updateTable('users').set({ email_confirmed_at: new Date() }).execute();
    expect(await admin.caller.admin.customers.list({ filter: 'unconfirmed', page: 5 })).toMatchObject({
      items: [],
      total: 0,
      page: 1,
      pageCount: 1,
    });

    const cookie = await signIn(admin.email);
    for (const page of [0, -1, 1.5, 100_001, 1e300, '2']) {
      const res = await callTrpc(t.app, 'admin.customers.list', { type: 'query', input: { page }, cookie });
      expect(res.statusCode).toBe(400);
      expect(res.error?.message).toBe('Invalid page');
    }
    const tooLong = await callTrpc(t.app, 'admin.customers.list', { type: 'query', input: { search: 'x'.repeat(201) }, cookie });
    expect(tooLong.statusCode).toBe(400);
  });

  it('searches by email or name on the server, case-insensitively, with % and _ taken literally', async () => {
    const admin = await newAdmin('boss@example.com');
    await t.db.updateTable('customers').set({ first_name: 'Ada', last_name: 'Boss' }).where('id', '=', admin.id).execute();
    await insertManyUsers(40);
    await insertBareUser('under_score@example.com', { confirmed: false });
    await insertBareUser('hundred%@example.com', { confirmed: true });
    const emails = async (search: string, filter: 'all' | 'unconfirmed' = 'all') =>
      (await admin.caller.admin.customers.list({ search, filter })).items.map((u) => u.email);

    expect(await emails('USER012')).toEqual(['user012@example.com']);
    expect(await emails('ada boss')).toEqual(['boss@example.com']);
    // "Person 012" is user012's name: found by first name, last name or both.
    expect(await emails('person 012')).toEqual(['user012@example.com']);
    expect(await emails('_')).toEqual(['under_score@example.com']);
    expect(await emails('%')).toEqual(['hundred%@example.com']);
    expect(await emails('nobody like this')).toEqual([]);
    // Search and filter together, paged: 40 "userNNN" of which every third is unconfirmed.
    const unconfirmedUsers = await admin.caller.admin.customers.list({ search: 'user0', filter: 'unconfirmed' });
    expect(unconfirmedUsers.items.map((u) => u.email)).toEqual(
      Array.from({ length: 40 }, (_, n) => n)
        .filter((n) => n % 3 === 0)
        .map((n) => `user${String(n).padStart(3, '0')}@example.com`),
    );
    const persons = await admin.caller.admin.customers.list({ search: 'person' });
    expect(persons).toMatchObject({ total: 20, pageCount: 1 });
    // The filter buttons keep counting every user.
    expect(persons.counts.all).toBe(43);
  });

  it('is for admins only', async () => {
    await newAdmin('boss@example.com');
    const customer = (await createCustomer(t.db, { email: 'shopper@example.com' })).id;
    expect((await trpcFailure(asUser(customer, 'shopper@example.com').admin.customers.list({}))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(callerFor(t.database, t.config, null).caller.admin.customers.list({}))).code).toBe('UNAUTHORIZED');
  });
});

describe('admin.customers.addToCustomers', () => {
  it('creates the customer record with empty names and phone, not an admin, and tells the user', async () => {
    const admin = await newAdmin('boss@example.com');
    const userId = await insertBareUser('Bare.User@example.com', { confirmed: true });
    const recorder = recordEvents(live.hub);
    try {
      expect(await admin.caller.admin.customers.addToCustomers({ userId })).toEqual({ userId });
      await waitFor(() => recorder.events.length > 0, 'the customer_changed event');
      expect(recorder.events).toEqual([{ type: 'customer_changed', userId }]);
    } finally {
      recorder.stop();
    }
    expect(
      await t.db
        .selectFrom('customers')
        .select(['email', 'first_name', 'last_name', 'phone', 'is_admin'])
        .where('id', '=', userId)
        .executeTakeFirst(),
    ).toEqual({
      email: 'Bare.User@example.com',
      first_name: '',
      last_name: '',
      phone: '',
      is_admin: false,
    });
    const listed = await admin.caller.admin.customers.list({ filter: 'all' });
    expect(listed.counts.not_in_customers).toBe(0);
    expect(listed.items.find((u) => u.id === userId)?.customer_data).toEqual({ full_name: null, is_admin: false });
  });

  it('refuses a user who is already a customer, an unknown user and a malformed id, writing nothing', async () => {
    const admin = await newAdmin('boss@example.com');
    expect(await trpcFailure(admin.caller.admin.customers.addToCustomers({ userId: admin.id }))).toEqual({
      code: 'CONFLICT',
      message: 'This user is already in customers',
    });
    expect(await trpcFailure(admin.caller.admin.customers.addToCustomers({ userId: crypto.randomUUID() }))).toEqual({
      code: 'NOT_FOUND',
      message: 'User not found',
    });
    expect(await trpcFailure(admin.caller.admin.customers.addToCustomers({ userId: 'nope' }))).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await isAdminInDb(admin.id)).toBe(true);
    expect(await countRows(t.db.selectFrom('customers'))).toBe(1);
  });
});

describe('admin.customers.setAdmin', () => {
  it('publishes customer_changed for a user the create-admin command promotes', async () => {
    const userId = (await createCustomer(t.db, { email: 'promoted.by.script@example.com' })).id;
    const recorder = recordEvents(live.hub);
    try {
      await createOrPromoteAdmin(t.db, 'promoted.by.script@example.com');
      await waitFor(() => recorder.events.length > 0, 'the customer_changed event');
      expect(recorder.events).toEqual([{ type: 'customer_changed', userId }]);
    } finally {
      recorder.stop();
    }
  });

  it('promotes and demotes, publishing customer_changed for that user each time', async () => {
    const admin = await newAdmin('boss@example.com');
    const userId = (await createCustomer(t.db, { email: 'helper@example.com' })).id;
    const recorder = recordEvents(live.hub);
    try {
      expect(await admin.caller.admin.customers.setAdmin({ userId, isAdmin: true })).toEqual({ userId, isAdmin: true });
      expect(await isAdminInDb(userId)).toBe(true);
      expect(await admin.caller.admin.customers.setAdmin({ userId, isAdmin: false })).toEqual({ userId, isAdmin: false });
      expect(await isAdminInDb(userId)).toBe(false);
      await waitFor(() => recorder.events.length === 2, 'two customer_changed events');
      expect(recorder.events).toEqual([
        { type: 'customer_changed', userId },
        { type: 'customer_changed', userId },
      ]);
    } finally {
      recorder.stop();
    }
  });

  it('does not make an admin of an address not confirmed, which anyone could have signed up with', async () => {
    const admin = await newAdmin('boss@example.com');
    const userId = (await createCustomer(t.db, { email: 'ceo@bigcorp.example', confirmed: false })).id;
    expect(await trpcFailure(admin.caller.admin.customers.setAdmin({ userId, isAdmin: true }))).toEqual({
      code: 'PRECONDITION_FAILED',
      message: UNCONFIRMED_ADMIN_MESSAGE,
    });
    expect(await isAdminInDb(userId)).toBe(false);
  });

  it('refuses a user without a customer record and bad input', async () => {
    const admin = await newAdmin('boss@example.com');
    const bare = await insertBareUser('bare@example.com', { confirmed: true });
    expect(await trpcFailure(admin.caller.admin.customers.setAdmin({ userId: bare, isAdmin: true }))).toEqual({
      code: 'NOT_FOUND',
      message: 'This user is not in customers',
    });
    expect(await t.db.selectFrom('customers').select('id').where('id', '=', bare).executeTakeFirst()).toBeUndefined();
    const res = await callTrpc(t.app, 'admin.customers.setAdmin', {
      input: { userId: bare, isAdmin: 'yes' },
      cookie: await signIn(admin.email),
    });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe('isAdmin must be true or false');
  });

  it('never removes the last admin, not even when they demote themselves', async () => {
    const admin = await newAdmin('boss@example.com');
    expect(await trpcFailure(admin.caller.admin.customers.setAdmin({ userId: admin.id, isAdmin: false }))).toEqual({
      code: 'CONFLICT',
      message: LAST_ADMIN_MESSAGE,
    });
    expect(await isAdminInDb(admin.id)).toBe(true);
  });

  it('lets an admin demote themselves while another admin remains', async () => {
    const first = await newAdmin('first@example.com');
    const second = await newAdmin('second@example.com');
    await first.caller.admin.customers.setAdmin({ userId: first.id, isAdmin: false });
    expect(await isAdminInDb(first.id)).toBe(false);
    // Now the other one is the last.
    expect((await trpcFailure(second.caller.admin.customers.setAdmin({ userId: second.id, isAdmin: false }))).message).toBe(
      LAST_ADMIN_MESSAGE,
    );
  });

  it('applies a demotion on the very next request of that user', async () => {
    const boss = await newAdmin('boss@example.com');
    const other = await newAdmin('other@example.com');
    const cookie = await signIn(other.email);
    expect((await callTrpc(t.app, 'admin.contact.newCount', { type: 'query', cookie })).statusCode).toBe(200);
    await boss.caller.admin.customers.setAdmin({ userId: other.id, isAdmin: false });
    const refused = await callTrpc(t.app, 'admin.customers.list', { type: 'query', input: { filter: 'all' }, cookie });
    expect(refused.error?.data.code).toBe('FORBIDDEN');
    expect((await callTrpc<{ isAdmin: boolean }>(t.app, 'auth.me', { type: 'query', cookie })).data?.isAdmin).toBe(false);
  });

  it('keeps an admin when two admins demote each other at the same moment', async () => {
    // Two connections (pools) on PostgreSQL, so the two transactions really run side by side.
    const url = (t.database as { url?: string }).url;
    const second = url ? await openDatabase({ databaseUrl: url }) : t.database;
    try {
      for (let round = 0; round < 5; round++) {
        await t.db.deleteFrom('users').execute();
        const a = await newAdmin('a@example.com');
        const b = await newAdmin('b@example.com');
        const results = await Promise.allSettled([
          a.caller.admin.customers.setAdmin({ userId: b.id, isAdmin: false }),
          asUser(b.id, b.email, second).admin.customers.setAdmin({ userId: a.id, isAdmin: false }),
        ]);
        expect(await adminCount()).toBe(1);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        // Refused either by the count (both got past the admin check) or, when the other
        // demotion committed first, by the admin check itself.
        const refusal = results.find((r) => r.status === 'rejected')?.reason as TRPCError;
        expect([LAST_ADMIN_MESSAGE, ADMIN_REQUIRED]).toContain(refusal.message);
      }
    } finally {
      if (second !== t.database) await second.close();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('waits for a demotion in flight before counting the admins', async () => {
    const url = (t.database as { url?: string }).url!;
    const other = await openDatabase({ databaseUrl: url });
    try {
      const a = await newAdmin('a@example.com');
      const b = await newAdmin('b@example.com');
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      // Another process has demoted B but not committed yet.
      const inFlight = other.db.transaction().execute(async (trx) => {
        await trx.selectFrom('customers').select('id').where('is_admin', '=', true).forUpdate().execute();
        await trx.updateTable('customers').set({ is_admin: false }).where('id', '=', b.id).execute();
        locked();
        await released;
      });
      await lockTaken;
      const demotion = trpcFailure(a.caller.admin.customers.setAdmin({ userId: a.id, isAdmin: false }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      release();
      await inFlight;
      expect(await demotion).toEqual({ code: 'CONFLICT', message: LAST_ADMIN_MESSAGE });
      expect(await adminCount()).toBe(1);
    } finally {
      await other.close();
    }
  });
});

async function signIn(email: string): Promise<string> {
  const res = await callTrpc(t.app, 'auth.signIn', { input: { email, password: 'adminpass1' } });
  if (!res.cookies.session) throw new Error(`sign-in failed: ${JSON.stringify(res.error)}`);
  return `session=${res.cookies.session}`;
}
