import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database';
import { callTrpc, createTestApp, signUp, TEST_ORIGIN, type TestApp } from '../support/app';
import { queuedEmailLink } from '../support/email';

let t: TestApp;
let db: Db;
beforeAll(async () => {
  t = await createTestApp();
  db = t.db;
});
afterAll(() => t.close());

const latestEmailTo = (to: string) =>
  db.selectFrom('email_queue').selectAll().where('to_email', '=', to).orderBy('created_at', 'desc').executeTakeFirst();

/** The token in the first link of an email's text. */
function tokenFromEmail(text: string, pathName: string): string {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error('no link in email');
  const url = new URL(link);
  expect(url.origin).toBe(TEST_ORIGIN);
  expect(url.pathname).toBe(pathName);
  return url.searchParams.get('token')!;
}

const countUsers = async () => Number((await sql<{ n: number }>`select count(*)::int as n from users`.execute(db)).rows[0]!.n);

describe('sign up', () => {
  it('creates the user, its customers row, a confirmation email and a session cookie with safe flags', async () => {
    const res = await callTrpc<{ email: string; isAdmin: boolean; emailConfirmed: boolean }>(t.app, 'auth.signUp', {
      input: { email: 'New.Shopper@Example.com', password: 'secret123' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ email: 'New.Shopper@Example.com', isAdmin: false, emailConfirmed: false });

    const cookie = res.setCookies.find((c) => c.startsWith('session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i); // plain http in development and tests
    expect(cookie).toMatch(/Expires=/);

    const user = await db.selectFrom('users').selectAll().where('email', '=', 'New.Shopper@Example.com').executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(user.last_sign_in_at).not.toBeNull();
    const customer = await db.selectFrom('customers').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(customer).toMatchObject({ email: 'New.Shopper@Example.com', is_admin: false, first_name: '' });
    expect(customer.shipping_address.country).toBe('USA');

    const email = await latestEmailTo('New.Shopper@Example.com');
    expect(email?.status).toBe('pending');
    expect(email?.subject).toContain('Confirm');

    // Only a hash of the session secret is stored.
    const token = res.cookies.session!;
    const [id, secret] = token.split('.');
    const stored = await db.selectFrom('sessions').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
    expect(Buffer.from(stored.secret_hash).toString('utf8')).not.toContain(secret);
    expect(stored.secret_hash.length).toBe(32);
  });

  it('rejects a short password with the spec message and writes nothing', async () => {
    const before = await countUsers();
    const res = await callTrpc(t.app, 'auth.signUp', { input: { email: 'short@example.com', password: '12345' } });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe('Password must be at least 6 characters long');
    expect(res.error?.data.fieldErrors?.password).toEqual(['Password must be at least 6 characters long']);
    expect(await countUsers()).toBe(before);
  });

  it('asks for an email and a password when either is missing', async () => {
    const res = await callTrpc(t.app, 'auth.signUp', { input: { email: '', password: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe('You must provide either an email or phone number and a password');
  });

  it('refuses an email that is already registered, whatever its case', async () => {
    const res = await callTrpc(t.app, 'auth.signUp', { input: { email: 'new.shopper@example.COM', password: 'another1' } });
    expect(res.statusCode).toBe(409);
    expect(res.error?.message).toBe('User already registered');
  });

  it('confirms the email through the emailed link, once', async () => {
    const email = await latestEmailTo('New.Shopper@Example.com');
    const token = tokenFromEmail(email!.text_body, '/confirm-email');
    const res = await callTrpc(t.app, 'auth.confirmEmail', { input: { token } });
    expect(res.statusCode).toBe(200);
    const user = await db
      .selectFrom('users')
      .select('email_confirmed_at')
      .where('email', '=', 'New.Shopper@Example.com')
      .executeTakeFirstOrThrow();
    expect(user.email_confirmed_at).not.toBeNull();
    const again = await callTrpc(t.app, 'auth.confirmEmail', { input: { token } });
    expect(again.error?.message).toBe('Invalid or expired confirmation link');
  });
});

describe('sign in and sign out', () => {
  it('gives the same message for a wrong password and an unknown email', async () => {
    await signUp(t.app, 'rider@example.com', 'goodpass1');
    const wrong = await callTrpc(t.app, 'auth.signIn', { input: { email: 'rider@example.com', password: 'badpass' } });
    const unknown = await callTrpc(t.app, 'auth.signIn', { input: { email: 'nobody@example.com', password: 'badpass' } });
    expect(wrong.error?.message).toBe('Invalid login credentials');
    expect(unknown.error?.message).toBe('Invalid login credentials');
    expect(wrong.cookies.session).toBeUndefined();
  });

  it('starts a new session at each sign-in, records the sign-in, and auth.me reports the user', async () => {
    await db.updateTable('users').set({ last_sign_in_at: null }).where('email', '=', 'rider@example.com').execute();
    const res = await callTrpc(t.app, 'auth.signIn', { input: { email: 'RIDER@example.com', password: 'goodpass1' } });
    expect(res.statusCode).toBe(200);
    const cookie = `session=${res.cookies.session}`;
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie });
    expect(me.data).toMatchObject({ email: 'rider@example.com', isAdmin: false, emailConfirmed: false });
    const user = await db.selectFrom('users').select('last_sign_in_at').where('email', '=', 'rider@example.com').executeTakeFirstOrThrow();
    expect(user.last_sign_in_at).not.toBeNull();

    const second = await callTrpc(t.app, 'auth.signIn', { input: { email: 'rider@example.com', password: 'goodpass1' }, cookie });
    expect(second.cookies.session).not.toBe(res.cookies.session);
    // Signing in again from the same browser ends the session it had.
    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie })).data).toBeNull();
  });

  it('sign-out ends the session on the server, not just in the browser', async () => {
    const cookie = await signUp(t.app, 'leaver@example.com');
    const sessionId = cookie.split('=')[1]!.split('.')[0]!;
    const out = await callTrpc(t.app, 'auth.signOut', { cookie });
    expect(out.statusCode).toBe(200);
    expect(out.setCookies.some((c) => c.startsWith('session=;') && /Expires=Thu, 01 Jan 1970/.test(c))).toBe(true);
    expect(await db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst()).toBeUndefined();
    // The old cookie, replayed, no longer works.
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie });
    expect(me.data).toBeNull();
    const profile = await callTrpc(t.app, 'account.profile', { type: 'query', cookie });
    expect(profile.statusCode).toBe(401);
  });

  it('refuses a forged token whose id exists but whose secret is wrong', async () => {
    const cookie = await signUp(t.app, 'forged@example.com');
    const id = cookie.split('=')[1]!.split('.')[0]!;
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie: `session=${id}.${'a'.repeat(52)}` });
    expect(me.data).toBeNull();
  });

  it('extends a session past half its lifetime and re-sends the cookie (sliding expiry)', async () => {
    const cookie = await signUp(t.app, 'slider@example.com');
    const id = cookie.split('=')[1]!.split('.')[0]!;
    const soon = new Date(Date.now() + 24 * 60 * 60 * 1000);
    await db.updateTable('sessions').set({ expires_at: soon }).where('id', '=', id).execute();
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie });
    expect(me.data).toMatchObject({ email: 'slider@example.com' });
    expect(me.setCookies.some((c) => c.startsWith('session='))).toBe(true);
    const row = await db.selectFrom('sessions').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60 * 1000);
  });

  it('drops an expired session and clears its cookie', async () => {
    const cookie = await signUp(t.app, 'expired@example.com');
    const id = cookie.split('=')[1]!.split('.')[0]!;
    await db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie });
    expect(me.data).toBeNull();
    expect(me.setCookies.some((c) => c.startsWith('session=;'))).toBe(true);
    expect(await db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });
});

describe('password reset', () => {
  const resetCount = () =>
    db
      .selectFrom('email_queue')
      .select('id')
      .where('subject', 'like', 'Reset%')
      .execute()
      .then((rows) => rows.length);

  it('answers the same for an unknown address and queues nothing', async () => {
    const before = await resetCount();
    const res = await callTrpc(t.app, 'auth.requestPasswordReset', { input: { email: 'ghost@example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ ok: true });
    expect(await resetCount()).toBe(before);
  });

  it('emails a recovery link; the reset ends every session; the token works once', async () => {
    const first = await signUp(t.app, 'forgetful@example.com', 'oldpass1');
    const second = (await callTrpc(t.app, 'auth.signIn', { input: { email: 'forgetful@example.com', password: 'oldpass1' } })).cookies
      .session!;

    const ask = await callTrpc(t.app, 'auth.requestPasswordReset', { input: { email: 'FORGETFUL@example.com' } });
    expect(ask.data).toEqual({ ok: true });
    const link = new URL(await queuedEmailLink(db, 'forgetful@example.com', 'Reset'));
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('type')).toBe('recovery');
    const token = link.searchParams.get('token')!;

    const verify = await callTrpc(t.app, 'auth.verifyResetToken', { type: 'query', input: { token } });
    expect(verify.data).toEqual({ valid: true });

    const short = await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: '123' } });
    expect(short.error?.message).toBe('Password must be at least 6 characters long');

    const reset = await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: 'newpass1' } });
    expect(reset.statusCode).toBe(200);

    for (const cookie of [first, `session=${second}`]) {
      expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie })).data).toBeNull();
    }
    const userId = (await db.selectFrom('users').select('id').where('email', '=', 'forgetful@example.com').executeTakeFirstOrThrow()).id;
    expect(await db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).toEqual([]);

    const oldPassword = await callTrpc(t.app, 'auth.signIn', { input: { email: 'forgetful@example.com', password: 'oldpass1' } });
    expect(oldPassword.error?.message).toBe('Invalid login credentials');
    const newPassword = await callTrpc(t.app, 'auth.signIn', { input: { email: 'forgetful@example.com', password: 'newpass1' } });
    expect(newPassword.statusCode).toBe(200);

    const reused = await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: 'another1' } });
    expect(reused.statusCode).toBe(400);
    expect(reused.error?.message).toBe('Invalid or expired reset link');
    const verifyAgain = await callTrpc(t.app, 'auth.verifyResetToken', { type: 'query', input: { token } });
    expect(verifyAgain.error?.message).toBe('Invalid or expired reset link');
  });

  it('refuses an expired token', async () => {
    await signUp(t.app, 'late@example.com');
    await callTrpc(t.app, 'auth.requestPasswordReset', { input: { email: 'late@example.com' } });
    const token = new URL(await queuedEmailLink(db, 'late@example.com', 'Reset')).searchParams.get('token')!;
    await db
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('purpose', '=', 'password_reset')
      .execute();
    const verify = await callTrpc(t.app, 'auth.verifyResetToken', { type: 'query', input: { token } });
    expect(verify.error?.message).toBe('Invalid or expired reset link');
    const reset = await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: 'newpass1' } });
    expect(reset.error?.message).toBe('Invalid or expired reset link');
  });

  it('says "Invalid reset link" when the token is missing', async () => {
    const res = await callTrpc(t.app, 'auth.verifyResetToken', { type: 'query', input: { token: '' } });
    expect(res.error?.message).toBe('Invalid reset link');
  });
});

describe('requests from another origin', () => {
  it('refuses a cross-origin JSON post with 403 and changes nothing', async () => {
    const before = await countUsers();
    const res = await callTrpc(t.app, 'auth.signUp', {
      input: { email: 'csrf@example.com', password: 'secret123' },
      headers: { origin: 'http://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(await countUsers()).toBe(before);
  });

  it('refuses a cross-site form post (multipart) with 403', async () => {
    const cookie = await signUp(t.app, 'victim@example.com');
    const boundary = '----threadline';
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.signOut',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: 'https://evil.example', cookie },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(403);
    // The victim is still signed in.
    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie })).data).toMatchObject({ email: 'victim@example.com' });
  });

  it('refuses a post that a browser marks cross-site even without an Origin header', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.signOut',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      payload: 'null',
    });
    expect(res.statusCode).toBe(403);
  });

  it('refuses an Origin of "null" (sandboxed frames, files)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/trpc/auth.signOut', headers: { origin: 'null' }, payload: '' });
    expect(res.statusCode).toBe(403);
  });

  it('still serves cross-origin reads (GET)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/trpc/catalog.categories', headers: { origin: 'http://elsewhere.example' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('bad input', () => {
  it('answers malformed JSON with 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.signIn',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers an unknown procedure with 404', async () => {
    const res = await callTrpc(t.app, 'auth.noSuchThing', { type: 'query' });
    expect(res.statusCode).toBe(404);
  });

  it('answers wrong input types with 400 and a message', async () => {
    const res = await callTrpc(t.app, 'auth.signIn', { input: { email: 42, password: ['x'] } });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBeTruthy();
  });
});

describe('rate limits', () => {
  it('answers 429 with a clear message once an IP has used up its sign-in attempts', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const attempt = () => callTrpc(limited.app, 'auth.signIn', { input: { email: 'x@example.com', password: 'whatever' } });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(400);
      const blocked = await attempt();
      expect(blocked.statusCode).toBe(429);
      expect(blocked.error?.message).toBe('Too many attempts. Please wait a minute and try again.');
      // Other limited actions have their own budget; unlimited ones are untouched.
      const reset = await callTrpc(limited.app, 'auth.requestPasswordReset', { input: { email: 'x@example.com' } });
      expect(reset.statusCode).toBe(200);
      expect((await callTrpc(limited.app, 'auth.me', { type: 'query' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('rate limits behind a proxy', () => {
  it('counts by the address the proxy saw: a client rotating X-Forwarded-For stays one client', async () => {
    // The test's requests come from 127.0.0.1, standing in for the one proxy in front (TRUST_PROXY=1),
    // which appends the address it saw (203.0.113.7) to whatever the client sent.
    const proxied = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '1' });
    try {
      const attempt = (n: number) =>
        callTrpc(proxied.app, 'auth.signIn', {
          input: { email: 'x@example.com', password: 'whatever' },
          headers: { 'x-forwarded-for': `198.51.100.${n}, 203.0.113.7` },
        });
      const statuses = [];
      for (let n = 0; n < 40; n++) statuses.push((await attempt(n)).statusCode);
      expect(statuses.filter((status) => status === 400)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(37);
      // Another client behind the same proxy has its own budget.
      const other = await callTrpc(proxied.app, 'auth.signIn', {
        input: { email: 'x@example.com', password: 'whatever' },
        headers: { 'x-forwarded-for': '203.0.113.8' },
      });
      expect(other.statusCode).toBe(400);
    } finally {
      await proxied.close();
    }
  });
});

describe('production cookies', () => {
  it('are Secure and carry the __Host- prefix', async () => {
    const prod = await createTestApp({ NODE_ENV: 'production' });
    try {
      const res = await callTrpc(prod.app, 'auth.signUp', { input: { email: 'prod@example.com', password: 'secret123' } });
      const cookie = res.setCookies.find((c) => c.startsWith('__Host-session='));
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/Path=\//);
    } finally {
      await prod.close();
    }
  });
});
