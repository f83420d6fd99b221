import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ACCOUNT_EMAILS_PER_HOUR } from '../../src/server/auth/account-emails';
import { hashPassword, passwordHashingLoad } from '../../src/server/auth/password';
import { TOO_MANY_ACCOUNT_EMAILS } from '../../src/shared/schemas/auth';
import { callTrpc, createTestApp, signInHttp, withTestApp, type TestApp } from '../support/app';
import { createCategory, createCustomer, createProduct, RITAS_SHIPPING } from '../support/factories';

// Floods of password resets with junk links (each a batch of 250 calls) made
// everyone's sign-in slow, as every call hashed a password before looking at its link. Links are
// now checked first, batches are capped, every auth mutation has a budget per IP, password work
// runs a few at a time, and a lagging process sheds load with 503 + Retry-After.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const JUNK_RESET = { token: 'not-a-real-token', password: 'newpass1' };

/** One HTTP request carrying `calls` tRPC calls, as a batching client sends them (queries by GET). */
function batch(app: TestApp['app'], procedure: string, calls: number, input: unknown, method: 'GET' | 'POST' = 'POST') {
  const paths = Array.from({ length: calls }, () => procedure).join(',');
  const inputs = JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [String(i), input])));
  return app.inject({
    method,
    url: `/trpc/${paths}?batch=1${method === 'GET' ? `&input=${encodeURIComponent(inputs)}` : ''}`,
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
    ...(method === 'POST' ? { payload: inputs } : {}),
  });
}

describe('password resets with junk links', () => {
  it('are refused before any password is hashed', async () => {
    const before = passwordHashingLoad().completed;
    const res = await callTrpc(t.app, 'auth.resetPassword', { input: JUNK_RESET });
    expect(res.error?.message).toBe('Invalid or expired reset link');
    const flood = await batch(t.app, 'auth.resetPassword', 10, JUNK_RESET);
    expect(flood.statusCode).toBe(400);
    expect(passwordHashingLoad().completed).toBe(before);
  });

  it('cannot come 250 to a request: a batch over 10 calls is refused whole', async () => {
    const tooMany = await batch(t.app, 'auth.resetPassword', 11, JUNK_RESET);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain('Batch call exceeds maximum size');
    const allowed = await batch(t.app, 'catalog.categories', 10, {}, 'GET');
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json<unknown[]>()).toHaveLength(10);
  });

  it('refuses a body larger than any call needs, before reading it as JSON', async () => {
    const huge = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.signIn',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      payload: JSON.stringify({ email: 'x@example.com', password: 'x'.repeat(200 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
  });
});

describe('every auth mutation', () => {
  it('has a budget per IP: resets, email links and sign-outs are limited like sign-ins', async () => {
    await withTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2' }, async (limited) => {
      const statuses = async (procedure: string, input: unknown, times: number) => {
        const seen = [];
        for (let i = 0; i < times; i++) seen.push((await callTrpc(limited.app, procedure, { input })).statusCode);
        return seen;
      };
      expect(await statuses('auth.resetPassword', JUNK_RESET, 3)).toEqual([400, 400, 429]);
      // Reset and confirmation links share one budget: guessing either kind spends it.
      expect(await statuses('auth.confirmEmail', { token: 'not-a-real-token' }, 1)).toEqual([429]);
      expect(await statuses('auth.signOut', undefined, 3)).toEqual([200, 200, 429]);
    });
  });

  /** Runs `test` with an app allowing 2 of each action per minute and a customer signed in; `status` of a call with empty input. */
  async function withTightBudgets(test: (status: (procedure: string) => Promise<number>) => Promise<void>) {
    await withTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2' }, async (limited) => {
      const cookie = await signInHttp(limited.app, (await createCustomer(limited.db)).email);
      await test(async (procedure) => (await callTrpc(limited.app, procedure, { input: {}, cookie })).statusCode);
    });
  }

  it("limits placing orders and joining plans, which email the account's address, in one budget per IP", () =>
    withTightBudgets(async (status) => {
      expect([await status('checkout.placeOrder'), await status('checkout.placeOrder')]).toEqual([400, 400]);
      expect(await status('subscriptions.join')).toBe(429);
    }));

  it("limits a member's changes, each of which emails them, in a budget of their own per IP", () =>
    withTightBudgets(async (status) => {
      const statuses = [];
      for (const change of ['pause', 'resume', 'skipNext', 'changeChoices', 'cancel', 'keep'])
        statuses.push(await status(`subscriptions.${change}`));
      expect(statuses).toEqual([400, 400, 429, 429, 429, 429]);
      // Orders and joins keep their own budget.
      expect(await status('checkout.placeOrder')).toBe(400);
    }));
});

describe("emails to one account's address", () => {
  it('are at most 5 an hour, however many clients ask: sign-ups with it, reset requests, new confirmation links', async () => {
    // Budgets per IP out of the way, as for a sender with many addresses.
    await withTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' }, async (store) => {
      const owner = await createCustomer(store.db, { email: 'owner@example.com', confirmed: false });
      const asked = async () =>
        (await store.db.selectFrom('users').select('account_emails_sent').where('id', '=', owner.id).executeTakeFirstOrThrow())
          .account_emails_sent;
      const queued = async () =>
        (await store.db.selectFrom('email_queue').select('id').where('to_email', '=', owner.email).execute()).length;
      const signUp = () => callTrpc(store.app, 'auth.signUp', { input: { email: owner.email, password: 'stranger1' } });
      const reset = () => callTrpc(store.app, 'auth.requestPasswordReset', { input: { email: owner.email } });

      for (const [i, ask] of [signUp, reset, signUp, reset, signUp, reset, signUp].entries()) {
        // The same answer whether or not an email goes: it would tell who has an account.
        expect((await ask()).statusCode).toBe(200);
        // The email (or none) is decided after the answer.
        await expect.poll(asked).toBe(i + 1);
      }
      expect(await queued()).toBe(ACCOUNT_EMAILS_PER_HOUR);

      const cookie = await signInHttp(store.app, owner.email, owner.password);
      const resend = await callTrpc(store.app, 'auth.resendConfirmation', { cookie });
      expect([resend.statusCode, resend.error?.message]).toEqual([429, TOO_MANY_ACCOUNT_EMAILS]);

      // An hour after the first, the budget is whole again.
      await store.db
        .updateTable('users')
        .set({ account_emails_since: sql<string>`now() - interval '61 minutes'` })
        .where('id', '=', owner.id)
        .execute();
      expect((await callTrpc(store.app, 'auth.resendConfirmation', { cookie })).data).toEqual({ sent: true });
      expect(await queued()).toBe(ACCOUNT_EMAILS_PER_HOUR + 1);
      expect(await asked()).toBe(1);
    });
  });
});

describe('orders and membership changes of an account whose address is not confirmed', () => {
  it("count in that address's hour of emails; a confirmed account's do not", async () => {
    // Budgets per IP out of the way, as for someone with many client addresses.
    await withTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' }, async (store) => {
      const tee = await createProduct(store.db, { category_id: (await createCategory(store.db)).id });
      const shipping = { ...RITAS_SHIPPING, phone: '(512) 555-0142' };
      const stranger = await createCustomer(store.db, { email: 'not-theirs@example.com', confirmed: false });
      const buyer = await createCustomer(store.db);
      const order = async (user: typeof buyer) => {
        const input = { idempotencyKey: randomUUID(), lines: [{ productId: tee.id, size: 'M', quantity: 1 }], shipping };
        return callTrpc(store.app, 'checkout.placeOrder', { cookie: await signInHttp(store.app, user.email), input });
      };
      const ordersOf = async (user: typeof buyer) =>
        (await store.db.selectFrom('orders').select('id').where('customer_id', '=', user.id).execute()).length;
      const emailsTo = async (user: typeof buyer) =>
        (await store.db.selectFrom('email_queue').select('id').where('to_email', '=', user.email).execute()).length;

      for (let i = 0; i < ACCOUNT_EMAILS_PER_HOUR; i++) expect((await order(stranger)).statusCode).toBe(200);
      const refused = await order(stranger);
      expect([refused.statusCode, refused.error?.message]).toEqual([429, TOO_MANY_ACCOUNT_EMAILS]);
      expect([await ordersOf(stranger), await emailsTo(stranger)]).toEqual([ACCOUNT_EMAILS_PER_HOUR, ACCOUNT_EMAILS_PER_HOUR]);
      const change = await callTrpc(store.app, 'subscriptions.pause', {
        cookie: await signInHttp(store.app, stranger.email),
        input: { id: randomUUID(), cycles: 1 },
      });
      expect([change.statusCode, change.error?.message]).toEqual([429, TOO_MANY_ACCOUNT_EMAILS]);

      for (let i = 0; i <= ACCOUNT_EMAILS_PER_HOUR; i++) expect((await order(buyer)).statusCode).toBe(200);
      expect(await ordersOf(buyer)).toBe(ACCOUNT_EMAILS_PER_HOUR + 1);
    });
  });
});

describe('password work', () => {
  it('runs two hashes at a time; the rest wait their turn and all finish', async () => {
    let mostRunning = 0;
    let mostWaiting = 0;
    const hashes = Promise.all(Array.from({ length: 8 }, (_, i) => hashPassword(`password-${i}`)));
    let done = false;
    void hashes.finally(() => (done = true));
    while (!done) {
      const load = passwordHashingLoad();
      mostRunning = Math.max(mostRunning, load.running);
      mostWaiting = Math.max(mostWaiting, load.waiting);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(mostRunning).toBe(2);
    expect(mostWaiting).toBeGreaterThanOrEqual(5);
    expect(new Set(await hashes).size).toBe(8);
    expect(passwordHashingLoad()).toMatchObject({ running: 0, waiting: 0 });
  });
});

describe('a process whose event loop lags', () => {
  it('answers 503 with Retry-After instead of queueing into timeouts, and stays alive for health checks', async () => {
    await withTestApp({ LOAD_SHED_EVENT_LOOP_DELAY_MS: '50' }, async (shedding) => {
      const busyFor = (ms: number) => {
        const until = Date.now() + ms;
        while (Date.now() < until) {
          // Holds the event loop, as a flood of synchronous work would.
        }
      };
      let refused;
      for (let round = 0; round < 30 && !refused; round++) {
        busyFor(300);
        await new Promise((resolve) => setImmediate(resolve));
        const res = await shedding.app.inject({ method: 'GET', url: '/trpc/catalog.categories' });
        if (res.statusCode === 503) refused = res;
      }
      expect(refused?.headers['retry-after']).toBe('10');
      expect((await shedding.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });
  });
});
