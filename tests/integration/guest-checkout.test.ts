import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { ACCOUNT_EMAILS_PER_HOUR } from '../../src/server/auth/account-emails';
import { accessKeyMatches } from '../../src/server/orders/guests';
import { TOO_MANY_ACCOUNT_EMAILS } from '../../src/shared/schemas/auth';
import { GUEST_EMAIL_REQUIRED, SIGN_IN_TO_CHECK_OUT } from '../../src/shared/schemas/checkout';
import { callerAs, callTrpc, createTestApp, signInHttp, withTestApp, type TestApp } from '../support/app';
import { trpcFailure } from '../support/async';
import { CONFIRMATION_SUBJECT, EXISTING_ACCOUNT_SUBJECT, queuedEmail, queuedEmailLink } from '../support/email';
import { createCategory, createCustomer, createProduct, RITAS_SHIPPING } from '../support/factories';

// Guest checkout: an order placed with an email address and no account, opened by the key in its
// address, taken into the account of that address once its owner signs in, and never telling
// anyone whether an address has an account.

/** When the app made each query that reads or writes the users table (Kysely's plugins see every query). */
const usersQueries: number[] = [];
const recordUsersQueries: KyselyPlugin = {
  transformQuery({ node }) {
    if (JSON.stringify(node).includes('"name":"users"')) usersQueries.push(performance.now());
    return node;
  },
  transformResult: ({ result }) => Promise.resolve(result),
};

let t: TestApp;
let tee: string;
beforeAll(async () => {
  t = await createTestApp({}, { plugins: [recordUsersQueries] });
  const category = await createCategory(t.db);
  tee = (await createProduct(t.db, { category_id: category.id, name: 'Ride Tee', slug: 'ride-tee', sku_number: 'G-1', price: '24.99' })).id;
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.deleteFrom('orders').execute();
  await t.db.deleteFrom('email_queue').execute();
  await t.db.deleteFrom('guest_email_budgets').execute();
});

const lines = () => [{ productId: tee, size: 'M' as const, quantity: 2 }];
/** A guest order over HTTP, as the checkout page sends it (no session cookie). */
const placeAsGuest = (email: string, key = randomUUID(), cookie?: string) =>
  callTrpc<{ orderId: string; orderNumber: string; accessKey: string | null; redirectUrl: string | null }>(t.app, 'checkout.placeOrder', {
    input: { idempotencyKey: key, lines: lines(), shipping: RITAS_SHIPPING, email },
    ...(cookie ? { cookie } : {}),
  });
const byKey = (orderNumber: string, key: string) =>
  callTrpc<{ order_number: string; total: string; guest: boolean }>(t.app, 'orders.byKey', { type: 'query', input: { orderNumber, key } });

describe('a guest order', () => {
  it('is placed against the address, emailed with a link that opens it, and priced by the server', async () => {
    const placed = await placeAsGuest('new.buyer@example.com');
    expect(placed.statusCode).toBe(200);
    const { orderNumber, accessKey } = placed.data!;
    // 256 random bits, base64url.
    expect(accessKey).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const order = await t.db
      .selectFrom('orders')
      .select(['customer_id', 'guest_email', 'total'])
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ customer_id: null, guest_email: 'new.buyer@example.com', total: '49.98' });

    const link = await queuedEmailLink(t.db, 'new.buyer@example.com', orderNumber);
    expect(link).toBe(`${t.config.publicUrl}/orders/${orderNumber}?key=${accessKey}`);
    const page = await byKey(orderNumber, new URL(link).searchParams.get('key')!);
    expect(page.statusCode).toBe(200);
    expect(page.data).toMatchObject({ order_number: orderNumber, total: '49.98', guest: true });
    // The order itself, nothing of anyone's account.
    expect(JSON.stringify(page.data)).not.toContain('new.buyer@example.com');
  });

  it('is not found without its key, with another order’s key or a wrong one, and an account’s order has no key', async () => {
    const first = (await placeAsGuest('one@example.com')).data!;
    const second = (await placeAsGuest('two@example.com')).data!;
    const customer = await createCustomer(t.db);
    const own = await callerAs(t, customer).checkout.placeOrder({ idempotencyKey: randomUUID(), lines: lines(), shipping: RITAS_SHIPPING });
    expect(own.accessKey).toBeNull();

    const wrongKey = `${first.accessKey!.slice(0, -1)}${first.accessKey!.endsWith('A') ? 'B' : 'A'}`;
    for (const [orderNumber, key] of [
      [first.orderNumber, second.accessKey!],
      [first.orderNumber, wrongKey],
      [own.orderNumber, first.accessKey!],
      ['TL-999999', first.accessKey!],
    ] as const) {
      const res = await byKey(orderNumber, key);
      expect(res.statusCode).toBe(404);
      expect(res.error?.message).toBe('Order not found');
    }
    // Without a key the order page is an account's: a guest is not signed in.
    expect((await callTrpc(t.app, 'orders.get', { type: 'query', input: { orderNumber: first.orderNumber } })).statusCode).toBe(401);
    // And another customer does not find it among theirs.
    expect((await trpcFailure(callerAs(t, customer).orders.get({ orderNumber: first.orderNumber }))).code).toBe('NOT_FOUND');
  });

  it('compares keys in constant time over digests, whatever their length', () => {
    expect(accessKeyMatches('a'.repeat(43), 'a'.repeat(43))).toBe(true);
    expect(accessKeyMatches('a'.repeat(43), 'a')).toBe(false);
    expect(accessKeyMatches(null, 'no key:x')).toBe(false);
  });

  it('is one order per submission: a retry gets the same order and key, another address another order', async () => {
    const key = randomUUID();
    const first = (await placeAsGuest('same@example.com', key)).data!;
    expect((await placeAsGuest('same@example.com', key)).data).toEqual(first);
    const other = (await placeAsGuest('someone.else@example.com', key)).data!;
    expect(other.orderNumber).not.toBe(first.orderNumber);
    expect(await t.db.selectFrom('orders').select('id').execute()).toHaveLength(2);
  });

  it('needs an address and the shop’s leave, and never joins the club', async () => {
    const noEmail = await callTrpc(t.app, 'checkout.placeOrder', {
      input: { idempotencyKey: randomUUID(), lines: lines(), shipping: RITAS_SHIPPING },
    });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.error?.data.fieldErrors).toEqual({ email: [GUEST_EMAIL_REQUIRED] });

    await t.db.updateTable('store_settings').set({ guest_checkout: false }).execute();
    try {
      const refused = await placeAsGuest('guest@example.com');
      expect(refused.statusCode).toBe(401);
      expect(refused.error?.message).toBe(SIGN_IN_TO_CHECK_OUT);
    } finally {
      await t.db.updateTable('store_settings').set({ guest_checkout: true }).execute();
    }
    expect(await t.db.selectFrom('orders').select('id').execute()).toEqual([]);

    const join = await callTrpc(t.app, 'subscriptions.join', { input: {} });
    expect(join.statusCode).toBe(401);
  });

  it('is refused with the price it was shown changed, as a customer’s is', async () => {
    const res = await callTrpc(t.app, 'checkout.placeOrder', {
      input: { idempotencyKey: randomUUID(), lines: lines(), shipping: RITAS_SHIPPING, email: 'price@example.com', expectedTotal: '10.00' },
    });
    expect(res.statusCode).toBe(409);
    expect(await t.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });
});

describe('no enumeration through the checkout', () => {
  it('answers a known and an unknown address alike, without reading accounts at all', async () => {
    const known = await createCustomer(t.db, { email: 'has.account@example.com' });
    const answers = [];
    for (const email of [known.email, 'no.account@example.com']) {
      const before = usersQueries.length;
      const res = await placeAsGuest(email);
      await t.app.background.settled();
      // Nothing about accounts is looked at, so neither the answer nor its time can tell them apart.
      expect(usersQueries.slice(before)).toEqual([]);
      answers.push({ status: res.statusCode, keys: Object.keys(res.data!).sort(), redirect: res.data!.redirectUrl });
      // Both inboxes get the order's confirmation, and nothing else.
      const subjects = await t.db.selectFrom('email_queue').select('subject').where('to_email', '=', email).execute();
      expect(subjects.map((row) => row.subject)).toEqual([expect.stringMatching(/^Order TL-\d+ confirmed$/)]);
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it('gives a guest order’s address its hour of emails, the same with or without an account', async () => {
    const known = await createCustomer(t.db, { email: 'budget.known@example.com' });
    for (const email of [known.email, 'budget.unknown@example.com']) {
      for (let i = 0; i < ACCOUNT_EMAILS_PER_HOUR; i++) expect((await placeAsGuest(email)).statusCode).toBe(200);
      const refused = await placeAsGuest(email);
      expect(refused.statusCode).toBe(429);
      expect(refused.error?.message).toBe(TOO_MANY_ACCOUNT_EMAILS);
    }
    // The budget names no address: only a hash of it is kept.
    const rows = await t.db.selectFrom('guest_email_budgets').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('budget.');
    // A customer signed in is not counted against it.
    const cookie = await signInHttp(t.app, known.email);
    expect((await placeAsGuest('ignored@example.com', randomUUID(), cookie)).statusCode).toBe(200);
  });

  it('shares the per-client limit of placing orders', async () => {
    await withTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' }, async (limited) => {
      const category = await createCategory(limited.db);
      const product = (await createProduct(limited.db, { category_id: category.id, price: '10.00' })).id;
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const res = await callTrpc(limited.app, 'checkout.placeOrder', {
          input: {
            idempotencyKey: randomUUID(),
            lines: [{ productId: product, size: 'M', quantity: 1 }],
            shipping: RITAS_SHIPPING,
            email: `limit-${i}@example.com`,
          },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  });
});

describe('guest orders and accounts', () => {
  it('joins the account of its address when the owner signs in, not before and not for an unconfirmed one', async () => {
    const owner = await createCustomer(t.db, { email: 'Owner@Example.com' });
    const unconfirmed = await createCustomer(t.db, { email: 'not.yet@example.com', confirmed: false });
    const mine = (await placeAsGuest('owner@example.com')).data!;
    const theirs = (await placeAsGuest('not.yet@example.com')).data!;
    expect((await callerAs(t, owner).orders.list({ page: 1 })).orders).toEqual([]);

    await signInHttp(t.app, owner.email);
    await signInHttp(t.app, unconfirmed.email);
    const list = await callerAs(t, owner).orders.list({ page: 1 });
    expect(list.orders.map((order) => order.order_number)).toEqual([mine.orderNumber]);
    // Whoever made an account with someone's address without proving it sees none of their orders.
    expect((await callerAs(t, unconfirmed).orders.list({ page: 1 })).orders).toEqual([]);
    const still = await t.db
      .selectFrom('orders')
      .select('customer_id')
      .where('order_number', '=', theirs.orderNumber)
      .executeTakeFirstOrThrow();
    expect(still.customer_id).toBeNull();

    // The emailed link keeps working, and the page now says the order is in an account.
    expect((await byKey(mine.orderNumber, mine.accessKey!)).data?.guest).toBe(false);
  });

  it('offers "Create an account": confirmed by the emailed link, which signs in and takes the order in', async () => {
    const placed = (await placeAsGuest('first.timer@example.com')).data!;
    const made = await callTrpc(t.app, 'checkout.createAccount', {
      input: { orderNumber: placed.orderNumber, key: placed.accessKey, password: 'secret123' },
    });
    expect(made.statusCode).toBe(200);
    const link = new URL(await queuedEmailLink(t.db, 'first.timer@example.com', CONFIRMATION_SUBJECT));
    expect(link.searchParams.get('next')).toBe(`/orders/${placed.orderNumber}`);
    const confirmed = await callTrpc(t.app, 'auth.confirmEmail', {
      input: { token: link.searchParams.get('token') },
      cookie: `signup=${made.cookies.signup}`,
    });
    expect(confirmed.statusCode).toBe(200);
    const mine = await callTrpc<{ order_number: string }>(t.app, 'orders.get', {
      type: 'query',
      input: { orderNumber: placed.orderNumber },
      cookie: `session=${confirmed.cookies.session}`,
    });
    expect(mine.data?.order_number).toBe(placed.orderNumber);
  });

  it('answers "Create an account" alike for an address with an account, whose inbox alone hears of it', async () => {
    const known = await createCustomer(t.db, { email: 'known.buyer@example.com' });
    const placed = (await placeAsGuest(known.email)).data!;
    const before = usersQueries.length;
    const res = await callTrpc(t.app, 'checkout.createAccount', {
      input: { orderNumber: placed.orderNumber, key: placed.accessKey, password: 'other-pass' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ ok: true });
    await queuedEmail(t.db, known.email, EXISTING_ACCOUNT_SUBJECT);
    // The account is looked up only once the answer is out.
    expect(usersQueries.length).toBeGreaterThan(before);

    const wrong = await callTrpc(t.app, 'checkout.createAccount', {
      input: { orderNumber: placed.orderNumber, key: 'x'.repeat(43), password: 'other-pass' },
    });
    expect(wrong.statusCode).toBe(404);
  });
});

describe('sign-up that returns where it started', () => {
  it('carries the return path in the confirmation link, and the note to a known address', async () => {
    const res = await callTrpc(t.app, 'auth.signUp', {
      input: { email: 'from.checkout@example.com', password: 'secret123', returnTo: '/checkout' },
    });
    expect(res.statusCode).toBe(200);
    const link = new URL(await queuedEmailLink(t.db, 'from.checkout@example.com', CONFIRMATION_SUBJECT));
    expect(link.pathname).toBe('/confirm-email');
    expect(link.searchParams.get('next')).toBe('/checkout');

    const known = await createCustomer(t.db, { email: 'known.joiner@example.com' });
    await callTrpc(t.app, 'auth.signUp', { input: { email: known.email, password: 'secret123', returnTo: '/subscriptions/join/classic' } });
    const note = await queuedEmail(t.db, known.email, EXISTING_ACCOUNT_SUBJECT);
    expect(note.text_body).toContain(`${t.config.publicUrl}/login?redirect=${encodeURIComponent('/subscriptions/join/classic')}`);
  });

  it("accepts only the store's own pages as the return path, and sends nothing for another", async () => {
    for (const returnTo of ['https://evil.example/checkout', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/trpc/auth.me']) {
      const res = await callTrpc(t.app, 'auth.signUp', { input: { email: 'tampered@example.com', password: 'secret123', returnTo } });
      expect(res.statusCode).toBe(400);
      expect(res.error?.message).toBe('Invalid return address');
    }
    await t.app.background.settled();
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'tampered@example.com').execute()).toEqual([]);
    expect(await t.db.selectFrom('email_queue').select('id').where('to_email', '=', 'tampered@example.com').execute()).toEqual([]);
  });
});
