import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import { ACCOUNT_EMAILS_PER_HOUR } from '../../src/server/auth/account-emails';
import { hashPassword, PASSWORD_CHECKS_BUSY, passwordHashingLoad, verifyPassword } from '../../src/server/auth/password';
import { TOO_MANY_ACCOUNT_EMAILS } from '../../src/shared/schemas/auth';
import { callTrpc, createTestApp, signInHttp, TEST_ORIGIN, withTestApp, type TestApp } from '../support/app';
import { createCategory, createCustomer, createProduct, RITAS_SHIPPING } from '../support/factories';

// Floods of password resets with junk links (each a batch of 250 calls) made
// everyone's sign-in slow, as every call hashed a password before looking at its link. Links are
// now checked first, batches are capped, every auth mutation has a budget per IP, password work
// runs a few at a time, and a lagging process sheds load with 503 + Retry-After.

const SAMPLES = 200;

/** A copy of `items` in random order (Fisher-Yates). */
function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** The first link in an email's text. */
const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)![0];

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
beforeAll(async () => {
  t = await createTestApp({}, { plugins: [recordUsersQueries] });
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
  it('has a budget per IP: resets, email links and sign-outs are limited like sign-ins; what another site sends spends none', async () => {
    await withTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2' }, async (limited) => {
      const statuses = async (procedure: string, input: unknown, times: number) => {
        const seen = [];
        for (let i = 0; i < times; i++) seen.push((await callTrpc(limited.app, procedure, { input })).statusCode);
        return seen;
      };
      // Another site's images pointing at the checks of emailed links (as a browser sends them: no
      // Origin, marked cross-site) are refused and spend nothing of the visitor's budget.
      for (const procedure of ['auth.verifyResetToken', 'auth.confirmationFor', 'auth.verifyResetToken']) {
        const input = encodeURIComponent(JSON.stringify({ token: 'not-a-real-token' }));
        const image = await limited.app.inject({ url: `/trpc/${procedure}?input=${input}`, headers: { 'sec-fetch-site': 'cross-site' } });
        expect(image.statusCode).toBe(403);
      }
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
  it('cannot be spent by strangers: sign-up notes are 5 an hour, reset requests reuse the live link, and the owner still gets theirs', async () => {
    const owner = await createCustomer(t.db, { email: 'owner@example.com', confirmed: false });
    const queued = async (subject: string) =>
      (
        await t.db
          .selectFrom('email_queue')
          .select('text_body')
          .where('to_email', '=', owner.email)
          .where('subject', 'like', `${subject}%`)
          .execute()
      ).map((email) => email.text_body);
    const ask = async (procedure: string, input: unknown) => {
      // The same answer whether or not an email goes: it would tell who has an account.
      expect((await callTrpc(t.app, procedure, { input })).statusCode).toBe(200);
      // The email (or none) is decided after the answer.
      await t.app.background.settled();
    };

    // Strangers, from as many addresses as they like: sign-ups with the address, reset requests.
    for (let i = 0; i < 7; i++) await ask('auth.signUp', { email: owner.email, password: 'stranger1' });
    for (let i = 0; i < 5; i++) await ask('auth.requestPasswordReset', { email: owner.email });
    expect(await queued('You already have')).toHaveLength(ACCOUNT_EMAILS_PER_HOUR);
    // Each note to an unconfirmed account carries a link to choose the password, which is live:
    // no reset email goes at all.
    expect(await queued('Reset')).toEqual([]);

    // The owner asks too: nothing new, and the link they have works.
    await ask('auth.requestPasswordReset', { email: owner.email });
    expect(await queued('Reset')).toEqual([]);
    const token = new URL(linkIn((await queued('You already have'))[0]!)).searchParams.get('token');
    expect((await callTrpc(t.app, 'auth.verifyResetToken', { type: 'query', input: { token } })).data).toEqual({ valid: true });

    // Signed in, the owner still gets new confirmation links: their own budget, 5 an hour.
    const cookie = await signInHttp(t.app, owner.email, owner.password);
    const resend = () => callTrpc(t.app, 'auth.resendConfirmation', { cookie });
    for (let i = 0; i < ACCOUNT_EMAILS_PER_HOUR; i++) expect((await resend()).data).toEqual({ sent: true });
    const refused = await resend();
    expect([refused.statusCode, refused.error?.message]).toEqual([429, TOO_MANY_ACCOUNT_EMAILS]);
    // An hour after the first, that budget is whole again.
    await t.db
      .updateTable('users')
      .set({ own_emails_since: sql<string>`now() - interval '61 minutes'` })
      .where('id', '=', owner.id)
      .execute();
    expect((await resend()).data).toEqual({ sent: true });
  });

  it('get one reset link at a time: asked again while it is live, nothing is sent; once it is used, a new one', async () => {
    const owner = await createCustomer(t.db, { email: 'forgetful.owner@example.com' });
    const resetTokens = async () =>
      (await t.db.selectFrom('email_queue').select('text_body').where('to_email', '=', owner.email).execute()).map((email) =>
        new URL(linkIn(email.text_body)).searchParams.get('token'),
      );
    const ask = async () => {
      await callTrpc(t.app, 'auth.requestPasswordReset', { input: { email: owner.email } });
      await t.app.background.settled();
    };
    for (let i = 0; i < 5; i++) await ask();
    const [token, ...more] = await resetTokens();
    expect(more).toEqual([]);
    expect((await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: 'new-pass-1' } })).statusCode).toBe(200);
    await ask();
    expect(await resetTokens()).toHaveLength(2);
  });
});

describe('reset and sign-up requests, for known and unknown addresses alike', () => {
  /** Each request's time from its arrival to its answer gone out, as the server sees it. */
  const answered = new Map<string, { arrived: number; sent: number }>();
  let origin = '';
  beforeAll(async () => {
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const arrived = performance.now();
      res.once('finish', () => answered.set(req.headers['x-sample']! as string, { arrived, sent: performance.now() }));
    });
  });
  const post = async (procedure: string, input: unknown, sample: string) => {
    const res = await fetch(`${origin}/trpc/${procedure}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, 'x-sample': sample },
      body: JSON.stringify(input),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    return answered.get(sample)!;
  };

  it("look the address up only once the answer has gone out, so nothing of the lookup's work is in its time", async () => {
    const known = await createCustomer(t.db, { email: 'looked.up@example.com' });
    const requests: [string, unknown][] = [
      ['auth.requestPasswordReset', { email: known.email }],
      ['auth.requestPasswordReset', { email: 'nobody.here@example.com' }],
      ['auth.signUp', { email: known.email, password: 'secret123' }],
      ['auth.signUp', { email: 'new.here@example.com', password: 'secret123' }],
    ];
    for (const [i, [procedure, input]] of requests.entries()) {
      const before = usersQueries.length;
      const { sent } = await post(procedure, input, `order-${i}`);
      await t.app.background.settled();
      const made = usersQueries.slice(before);
      expect(made.length).toBeGreaterThan(0);
      expect(made.filter((at) => at < sent)).toEqual([]);
    }
  });

  it('answer a reset request in the same time: 200 shuffled samples each, a known one slower about half the time', async () => {
    const known = await createCustomer(t.db, { email: 'timed@example.com' });
    const kinds = shuffled([...Array<boolean>(SAMPLES).fill(true), ...Array<boolean>(SAMPLES).fill(false)]);
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (const [i, isKnown] of kinds.entries()) {
      const email = isKnown ? known.email : `nobody-${i}@example.com`;
      const { arrived, sent } = await post('auth.requestPasswordReset', { email }, `timing-${i}`);
      times[isKnown ? 'known' : 'unknown'].push(sent - arrived);
    }
    await t.app.background.settled();
    // The chance that a known address's answer took longer than an unknown one's, over all pairs:
    // 0.5 when the times tell nothing. 200 samples each put chance alone within ±0.03 of it.
    let slower = 0;
    for (const k of times.known) for (const u of times.unknown) slower += k > u ? 1 : k === u ? 0.5 : 0;
    expect(slower / (SAMPLES * SAMPLES)).toBeLessThan(0.58);
  });
});

describe('orders and membership changes of an account whose address is not confirmed', () => {
  it("count in the hour of emails its own sessions ask for, which strangers cannot spend; a confirmed account's do not count", async () => {
    const tee = await createProduct(t.db, { category_id: (await createCategory(t.db)).id });
    const shipping = { ...RITAS_SHIPPING, phone: '(512) 555-0142' };
    const unconfirmed = await createCustomer(t.db, { email: 'not-confirmed@example.com', confirmed: false });
    const buyer = await createCustomer(t.db);
    const order = async (user: typeof buyer) => {
      const input = { idempotencyKey: randomUUID(), lines: [{ productId: tee.id, size: 'M', quantity: 1 }], shipping };
      return callTrpc(t.app, 'checkout.placeOrder', { cookie: await signInHttp(t.app, user.email), input });
    };
    const ordersOf = async (user: typeof buyer) =>
      (await t.db.selectFrom('orders').select('id').where('customer_id', '=', user.id).execute()).length;
    const emailsTo = async (user: typeof buyer) =>
      (await t.db.selectFrom('email_queue').select('id').where('to_email', '=', user.email).execute()).length;

    // Others signing up with the address spend the budget anyone can, not the account's own.
    for (let i = 0; i < ACCOUNT_EMAILS_PER_HOUR; i++) {
      await callTrpc(t.app, 'auth.signUp', { input: { email: unconfirmed.email, password: 'someone-else' } });
    }
    await t.app.background.settled();
    for (let i = 0; i < ACCOUNT_EMAILS_PER_HOUR; i++) expect((await order(unconfirmed)).statusCode).toBe(200);
    const refused = await order(unconfirmed);
    expect([refused.statusCode, refused.error?.message]).toEqual([429, TOO_MANY_ACCOUNT_EMAILS]);
    expect([await ordersOf(unconfirmed), await emailsTo(unconfirmed)]).toEqual([ACCOUNT_EMAILS_PER_HOUR, 2 * ACCOUNT_EMAILS_PER_HOUR]);
    const change = await callTrpc(t.app, 'subscriptions.pause', {
      cookie: await signInHttp(t.app, unconfirmed.email),
      input: { id: randomUUID(), cycles: 1 },
    });
    expect([change.statusCode, change.error?.message]).toEqual([429, TOO_MANY_ACCOUNT_EMAILS]);

    for (let i = 0; i <= ACCOUNT_EMAILS_PER_HOUR; i++) expect((await order(buyer)).statusCode).toBe(200);
    expect(await ordersOf(buyer)).toBe(ACCOUNT_EMAILS_PER_HOUR + 1);
  });
});

describe('password work', () => {
  it('runs two hashes at a time; the rest wait their turn and all finish; past 100 waiting, a sign-in is refused at once with Retry-After', async () => {
    let mostRunning = 0;
    let mostWaiting = 0;
    // Two hashes take the two places; a hundred checks wait (of hashes no password matches, so
    // they are quick once their turn comes); the next sign-in has no place to wait in.
    const hashes = Promise.all([hashPassword('password-1'), hashPassword('password-2')]);
    const checks = Promise.all(Array.from({ length: 100 }, () => verifyPassword('not an argon2 hash', 'password-1')));
    const busy = await callTrpc(t.app, 'auth.signIn', { input: { email: 'someone@example.com', password: 'whatever' } });
    let done = false;
    void Promise.all([hashes, checks]).finally(() => (done = true));
    while (!done) {
      const load = passwordHashingLoad();
      mostRunning = Math.max(mostRunning, load.running);
      mostWaiting = Math.max(mostWaiting, load.waiting);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect([busy.statusCode, busy.error?.message]).toEqual([503, PASSWORD_CHECKS_BUSY]);
    // As load shedding's 503 says when to come back, so does this one.
    expect(busy.headers['retry-after']).toBe('10');
    expect(mostRunning).toBe(2);
    expect(mostWaiting).toBe(100);
    expect(new Set(await hashes).size).toBe(2);
    expect(new Set(await checks)).toEqual(new Set([false]));
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
