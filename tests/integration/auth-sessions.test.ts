import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database';
import { CHOOSE_PASSWORD_TO_CONFIRM, INVALID_CONFIRMATION_LINK } from '../../src/shared/schemas/auth';
import { callTrpc, createTestApp, signInHttp, signUp, TEST_ORIGIN, type TestApp, type TrpcResponse, withTestApp } from '../support/app';
import { CONFIRMATION_SUBJECT, EXISTING_ACCOUNT_SUBJECT, queuedEmail, queuedEmailLink } from '../support/email';
import { createCustomer } from '../support/factories';

let t: TestApp;
let db: Db;
beforeAll(async () => {
  t = await createTestApp();
  db = t.db;
});
afterAll(() => t.close());

const countUsers = async () => Number((await sql<{ n: number }>`select count(*)::int as n from users`.execute(db)).rows[0]!.n);

const emailsTo = (to: string) =>
  db.selectFrom('email_queue').select(['subject', 'text_body']).where('to_email', '=', to).orderBy('created_at').execute();
const linksIn = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];

describe('sign up', () => {
  const attempt = (email: string, password = 'secret123') => callTrpc(t.app, 'auth.signUp', { input: { email, password } });
  /** All that a sign-up's answer shows its caller; the sign-up cookie's secret is random, so only its attributes. */
  const seen = ({ statusCode, data, error, setCookies }: TrpcResponse) => ({
    statusCode,
    data,
    error,
    setCookies: setCookies.map((cookie) =>
      cookie.replace(/^signup=[a-z2-7]{52};/, 'signup=<secret>;').replace(/Expires=[^;]+/, 'Expires=<date>'),
    ),
  });
  const usersWith = (email: string) =>
    db
      .selectFrom('users')
      .select('id')
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .execute();
  const existingAccountSubject = () => `You already have a ${t.config.storeName} account`;

  it('answers a new address and a known one, in any case, alike, and signs no one in', async () => {
    const known = await createCustomer(db, { email: 'Known.Twin@example.com' });
    const answers = [await attempt('new.twin@example.com'), await attempt(known.email), await attempt('KNOWN.twin@EXAMPLE.com')];
    for (const answer of answers) {
      expect(seen(answer)).toEqual({
        statusCode: 200,
        data: { ok: true },
        error: undefined,
        setCookies: ['signup=<secret>; Path=/; Expires=<date>; HttpOnly; SameSite=Lax'],
      });
    }
  });

  it('gives a new address its account, unconfirmed, and a confirmation link that signs it in with one press in the browser that signed up, once', async () => {
    const email = 'New.Shopper@Example.com';
    const signUpCookie = `signup=${(await attempt(email, 'shoppers-pass')).cookies.signup}`;
    const link = new URL(await queuedEmailLink(db, email, CONFIRMATION_SUBJECT));
    expect(link.origin).toBe(TEST_ORIGIN);
    expect(link.pathname).toBe('/confirm-email');

    const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(user.email_confirmed_at).toBeNull();
    expect(user.last_sign_in_at).toBeNull();
    const customer = await db.selectFrom('customers').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(customer).toMatchObject({ email, is_admin: false, first_name: '' });
    expect(customer.shipping_address.country).toBe('USA');
    expect(await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);

    const token = link.searchParams.get('token');
    const peek = await callTrpc(t.app, 'auth.confirmationFor', { type: 'query', input: { token }, cookie: signUpCookie });
    expect(peek.data).toEqual({ email, choosePassword: false });
    const res = await callTrpc(t.app, 'auth.confirmEmail', { input: { token }, cookie: signUpCookie });
    expect(res.statusCode).toBe(200);
    const cookie = res.setCookies.find((c) => c.startsWith('session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i); // plain http in development and tests
    expect(cookie).toMatch(/Expires=/);
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie: `session=${res.cookies.session}` });
    expect(me.data).toEqual({ id: user.id, email, isAdmin: false, emailConfirmed: true });
    const after = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.email_confirmed_at).not.toBeNull();
    expect(after.last_sign_in_at).not.toBeNull();
    // The password chosen at sign-up is the account's.
    expect((await callTrpc(t.app, 'auth.signIn', { input: { email, password: 'shoppers-pass' } })).statusCode).toBe(200);

    // Only a hash of the session secret is stored.
    const [id, secret] = res.cookies.session!.split('.');
    const stored = await db.selectFrom('sessions').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
    expect(Buffer.from(stored.secret_hash).toString('utf8')).not.toContain(secret);
    expect(stored.secret_hash.length).toBe(32);

    const again = await callTrpc(t.app, 'auth.confirmEmail', { input: { token }, cookie: signUpCookie });
    expect(again.error?.message).toBe('Invalid or expired confirmation link');
    expect(again.setCookies).toEqual([]);
  });

  it('sends a known address, asked in any case, a note that it has an account, and changes nothing', async () => {
    const known = await createCustomer(db, { email: 'Known.Rider@example.com' });
    await attempt('known.RIDER@example.com', 'another1');
    await attempt(known.email, 'another2');
    await expect.poll(async () => (await emailsTo(known.email)).length).toBe(2);
    for (const note of await emailsTo(known.email)) {
      expect(note.subject).toBe(existingAccountSubject());
      expect(note.text_body).toContain('You already have one');
      // Confirmed already: sign in, or reset the password.
      expect(linksIn(note.text_body)).toEqual([`${TEST_ORIGIN}/login`, `${TEST_ORIGIN}/login?mode=reset`]);
    }
    expect(await emailsTo('known.RIDER@example.com')).toEqual([]);
    expect(await usersWith(known.email)).toEqual([{ id: known.id }]);
    const withNewPassword = await callTrpc(t.app, 'auth.signIn', { input: { email: known.email, password: 'another1' } });
    expect(withNewPassword.error?.message).toBe('Invalid login credentials');
    const withOwnPassword = await callTrpc(t.app, 'auth.signIn', { input: { email: known.email, password: known.password } });
    expect(withOwnPassword.statusCode).toBe(200);
  });

  it('sends a known unconfirmed address a link to choose its password with the note; the sign-up sets no password', async () => {
    const pending = await createCustomer(db, { email: 'pending.rider@example.com', confirmed: false });
    await attempt(pending.email, 'strangers-password');
    const note = await queuedEmail(db, pending.email, EXISTING_ACCOUNT_SUBJECT);
    expect(note.text_body).toContain('Your email address is not confirmed yet. Choose your password with the link below');
    const [passwordLink, ...others] = linksIn(note.text_body);
    expect(new URL(passwordLink!).pathname).toBe('/reset-password');
    expect(others).toEqual([`${TEST_ORIGIN}/login`]);
    // The sign-up's password is nowhere: not the account's, and not waiting in a link.
    expect((await callTrpc(t.app, 'auth.signIn', { input: { email: pending.email, password: 'strangers-password' } })).statusCode).toBe(
      400,
    );

    // Whoever holds the inbox chooses the password: that confirms the address, and only that password signs in.
    const token = new URL(passwordLink!).searchParams.get('token');
    expect((await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: 'inbox-owners' } })).statusCode).toBe(200);
    const user = await db.selectFrom('users').select('email_confirmed_at').where('id', '=', pending.id).executeTakeFirstOrThrow();
    expect(user.email_confirmed_at).not.toBeNull();
    expect((await callTrpc(t.app, 'auth.signIn', { input: { email: pending.email, password: 'inbox-owners' } })).statusCode).toBe(200);
    expect((await callTrpc(t.app, 'auth.signIn', { input: { email: pending.email, password: pending.password } })).statusCode).toBe(400);
  });

  it("leaves an unconfirmed owner's account theirs when a stranger signs up with the address and the owner follows the note", async () => {
    // The owner signed up and has not confirmed yet; a stranger signs up with the same address.
    const owner = await createCustomer(db, { email: 'dana.owner@example.com', confirmed: false });
    await attempt(owner.email, 'strangers-password');
    const note = await queuedEmail(db, owner.email, EXISTING_ACCOUNT_SUBJECT);
    const [link] = linksIn(note.text_body);
    // The owner, thinking it their confirmation, follows it and chooses their password again.
    const token = new URL(link!).searchParams.get('token');
    expect((await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: owner.password } })).statusCode).toBe(200);
    expect((await callTrpc(t.app, 'auth.signIn', { input: { email: owner.email, password: owner.password } })).statusCode).toBe(200);
    expect((await callTrpc(t.app, 'auth.signIn', { input: { email: owner.email, password: 'strangers-password' } })).statusCode).toBe(400);
  });

  it("gives an account made with someone else's address to the address's owner once they choose its password: the maker is signed out and their password ends", async () => {
    const email = 'carol.owner@example.com';
    const signIn = (password: string) => callTrpc(t.app, 'auth.signIn', { input: { email, password } });
    // Made by someone who does not own the address, and signed in (an unconfirmed account may be).
    await attempt(email, 'makers-password');
    const makersLink = await queuedEmailLink(db, email, CONFIRMATION_SUBJECT);
    const makerCookie = await signInHttp(t.app, email, 'makers-password');

    // The owner signs up too, and chooses the password through the note they get.
    await attempt(email, 'owners-password');
    const note = await queuedEmail(db, email, EXISTING_ACCOUNT_SUBJECT);
    const [passwordLink] = linksIn(note.text_body);
    const token = new URL(passwordLink!).searchParams.get('token');
    expect((await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: 'owners-choice' } })).statusCode).toBe(200);

    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie: makerCookie })).data).toBeNull();
    expect((await signIn('makers-password')).error?.message).toBe('Invalid login credentials');
    expect((await signIn('owners-choice')).statusCode).toBe(200);
    const makersToken = new URL(makersLink).searchParams.get('token');
    expect((await callTrpc(t.app, 'auth.confirmEmail', { input: { token: makersToken } })).error?.message).toBe(INVALID_CONFIRMATION_LINK);
  });

  it("keeps a stranger who signed up first out when the address's owner confirms the stranger's link in their own browser", async () => {
    const email = 'erin.owner@example.com';
    const signIn = (password: string) => callTrpc(t.app, 'auth.signIn', { input: { email, password } });
    // A stranger signs up first with the owner's address and a password of their choosing, and signs in.
    await attempt(email, 'strangers-password');
    const confirmationLink = new URL(await queuedEmailLink(db, email, CONFIRMATION_SUBJECT));
    const strangerSession = await signInHttp(t.app, email, 'strangers-password');
    // The owner signs up a moment later in their own browser: two emails, the stranger's
    // confirmation and the note with a link to choose the password.
    const ownersBrowser = `signup=${(await attempt(email, 'owners-password')).cookies.signup}`;
    const [setPasswordLink] = linksIn((await queuedEmail(db, email, EXISTING_ACCOUNT_SUBJECT)).text_body);

    // The owner opens the first: it was not made for this browser, so one press does not do.
    const token = confirmationLink.searchParams.get('token');
    const peek = await callTrpc(t.app, 'auth.confirmationFor', { type: 'query', input: { token }, cookie: ownersBrowser });
    expect(peek.data).toEqual({ email, choosePassword: true });
    const onePress = await callTrpc(t.app, 'auth.confirmEmail', { input: { token }, cookie: ownersBrowser });
    expect([onePress.statusCode, onePress.error?.message, onePress.setCookies]).toEqual([400, CHOOSE_PASSWORD_TO_CONFIRM, []]);
    expect(await db.selectFrom('users').select('email_confirmed_at').where('email', '=', email).executeTakeFirstOrThrow()).toEqual({
      email_confirmed_at: null,
    });

    // Confirmed with a password of the owner's choosing: theirs, and the stranger's ends with every session.
    const confirmed = await callTrpc(t.app, 'auth.confirmEmail', { input: { token, password: 'owners-choice' }, cookie: ownersBrowser });
    expect(confirmed.statusCode).toBe(200);
    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie: `session=${confirmed.cookies.session}` })).data).toMatchObject({
      email,
      emailConfirmed: true,
    });
    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie: strangerSession })).data).toBeNull();
    expect((await signIn('strangers-password')).error?.message).toBe('Invalid login credentials');
    expect((await signIn('owners-choice')).statusCode).toBe(200);

    // The owner's own link to choose the password still works.
    const resetToken = new URL(setPasswordLink!).searchParams.get('token');
    expect((await callTrpc(t.app, 'auth.verifyResetToken', { type: 'query', input: { token: resetToken } })).data).toEqual({ valid: true });
    expect((await callTrpc(t.app, 'auth.resetPassword', { input: { token: resetToken, password: 'owners-later' } })).statusCode).toBe(200);
    expect((await signIn('owners-later')).statusCode).toBe(200);
  });

  it('says whose address a confirmation link is for without confirming anything; a used or unknown link is refused', async () => {
    const email = 'peeked@example.com';
    const cookie = `signup=${(await attempt(email)).cookies.signup}`;
    const token = new URL(await queuedEmailLink(db, email, CONFIRMATION_SUBJECT)).searchParams.get('token');
    const peek = () => callTrpc<{ email: string }>(t.app, 'auth.confirmationFor', { type: 'query', input: { token }, cookie });
    expect((await peek()).data).toEqual({ email, choosePassword: false });
    expect(await db.selectFrom('users').select('email_confirmed_at').where('email', '=', email).executeTakeFirstOrThrow()).toEqual({
      email_confirmed_at: null,
    });
    expect((await callTrpc(t.app, 'auth.confirmEmail', { input: { token }, cookie })).statusCode).toBe(200);
    for (const refused of [await peek(), await callTrpc(t.app, 'auth.confirmationFor', { type: 'query', input: { token: 'nope' } })]) {
      expect([refused.statusCode, refused.error?.message]).toEqual([400, INVALID_CONFIRMATION_LINK]);
    }
  });

  it('ends the other confirmation links once the address is confirmed, and every one when the password changes', async () => {
    const email = 'two.links@example.com';
    await attempt(email, 'firstpass1');
    // Sign-up makes the account after answering (the answer must not tell who exists).
    await queuedEmail(db, email, CONFIRMATION_SUBJECT);
    const cookie = await signInHttp(t.app, email, 'firstpass1');
    const confirmations = async () =>
      (await emailsTo(email))
        .filter((mail) => mail.subject.startsWith(CONFIRMATION_SUBJECT))
        .map((mail) => new URL(linksIn(mail.text_body)[0]!));
    const tokenOf = (link: URL) => link.searchParams.get('token');
    // Opened in another browser, where the confirmer chooses the password.
    const confirm = (link: URL) => callTrpc(t.app, 'auth.confirmEmail', { input: { token: tokenOf(link), password: 'firstpass1' } });

    expect((await callTrpc(t.app, 'auth.resendConfirmation', { cookie })).statusCode).toBe(200);
    const [first, second] = await confirmations();
    expect((await confirm(first!)).statusCode).toBe(200);
    expect((await confirm(second!)).error?.message).toBe(INVALID_CONFIRMATION_LINK);

    // A link of an address not yet confirmed, mailed before its owner changed the password.
    const later = 'changed.pass@example.com';
    await attempt(later, 'firstpass1');
    const link = new URL(linksIn((await queuedEmail(db, later, CONFIRMATION_SUBJECT)).text_body)[0]!);
    const laterCookie = await signInHttp(t.app, later, 'firstpass1');
    const changed = await callTrpc(t.app, 'account.changePassword', {
      cookie: laterCookie,
      input: { currentPassword: 'firstpass1', password: 'secondpass2' },
    });
    expect(changed.statusCode).toBe(200);
    const reused = await confirm(link);
    expect([reused.error?.message, reused.setCookies]).toEqual([INVALID_CONFIRMATION_LINK, []]);
  });

  it('makes one account of sign-ups racing for one address; the others get the note', async () => {
    const email = 'racer@example.com';
    const answers = await Promise.all([1, 2, 3].map(() => attempt(email)));
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    await expect.poll(async () => (await emailsTo(email)).length).toBe(3);
    const subjects = (await emailsTo(email)).map((e) => e.subject);
    expect(subjects.filter((subject) => subject.includes(CONFIRMATION_SUBJECT))).toHaveLength(1);
    expect(subjects.filter((subject) => subject === existingAccountSubject())).toHaveLength(2);
    expect(await usersWith(email)).toHaveLength(1);
  });

  it.each([
    [{ email: 'short@example.com', password: '12345' }, 'Password must be at least 6 characters long', 'password'],
    [{ email: 'not-an-email', password: 'secret123' }, 'Please enter a valid email address', 'email'],
    [{ email: '', password: '' }, 'You must provide either an email or phone number and a password', 'email'],
  ])('refuses %o with the spec message and changes nothing', async (input, message, field) => {
    const users = await countUsers();
    const emails = await db.selectFrom('email_queue').select('id').execute();
    const res = await callTrpc(t.app, 'auth.signUp', { input });
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe(message);
    expect(res.error?.data.fieldErrors?.[field]).toEqual([message]);
    expect(res.setCookies).toEqual([]);
    expect(await countUsers()).toBe(users);
    expect(await db.selectFrom('email_queue').select('id').execute()).toEqual(emails);
  });
});

describe('sign in and sign out', () => {
  it('gives the same message for a wrong password and an unknown email', async () => {
    await signUp(t, 'rider@example.com', 'goodpass1');
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
    expect(me.data).toMatchObject({ email: 'rider@example.com', isAdmin: false, emailConfirmed: true });
    const user = await db.selectFrom('users').select('last_sign_in_at').where('email', '=', 'rider@example.com').executeTakeFirstOrThrow();
    expect(user.last_sign_in_at).not.toBeNull();

    const second = await callTrpc(t.app, 'auth.signIn', { input: { email: 'rider@example.com', password: 'goodpass1' }, cookie });
    expect(second.cookies.session).not.toBe(res.cookies.session);
    // Signing in again from the same browser ends the session it had.
    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie })).data).toBeNull();
  });

  it('sign-out ends the session on the server, not just in the browser', async () => {
    const cookie = await signUp(t, 'leaver@example.com');
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
    const cookie = await signUp(t, 'forged@example.com');
    const id = cookie.split('=')[1]!.split('.')[0]!;
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie: `session=${id}.${'a'.repeat(52)}` });
    expect(me.data).toBeNull();
  });

  it('extends a session past half its lifetime and re-sends the cookie (sliding expiry)', async () => {
    const cookie = await signUp(t, 'slider@example.com');
    const id = cookie.split('=')[1]!.split('.')[0]!;
    const soon = new Date(Date.now() + 24 * 60 * 60 * 1000);
    await db.updateTable('sessions').set({ expires_at: soon }).where('id', '=', id).execute();
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie });
    expect(me.data).toMatchObject({ email: 'slider@example.com' });
    expect(me.setCookies.some((c) => c.startsWith('session='))).toBe(true);
    const row = await db.selectFrom('sessions').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60 * 1000);
  });

  it('drops an expired session, leaving its cookie to the browser, which drops it too', async () => {
    const cookie = await signUp(t, 'expired@example.com');
    const id = cookie.split('=')[1]!.split('.')[0]!;
    await db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    const me = await callTrpc(t.app, 'auth.me', { type: 'query', cookie });
    expect(me.data).toBeNull();
    expect(me.setCookies).toEqual([]);
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
    const first = await signUp(t, 'forgetful@example.com', 'oldpass1');
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
    await signUp(t, 'late@example.com');
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
    const cookie = await signUp(t, 'victim@example.com');
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
    await withTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' }, async (limited) => {
      const attempt = () => callTrpc(limited.app, 'auth.signIn', { input: { email: 'x@example.com', password: 'whatever' } });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(400);
      const blocked = await attempt();
      expect(blocked.statusCode).toBe(429);
      expect(blocked.error?.message).toBe('Too many attempts. Please wait a minute and try again.');
      // Other limited actions have their own budget; unlimited ones are untouched.
      const reset = await callTrpc(limited.app, 'auth.requestPasswordReset', { input: { email: 'x@example.com' } });
      expect(reset.statusCode).toBe(200);
      expect((await callTrpc(limited.app, 'auth.me', { type: 'query' })).statusCode).toBe(200);
    });
  });
});

describe('rate limits behind a proxy', () => {
  it('counts by the address the proxy saw: a client rotating X-Forwarded-For stays one client', async () => {
    // The test's requests come from 127.0.0.1, standing in for the one proxy in front (TRUST_PROXY=1),
    // which appends the address it saw (203.0.113.7) to whatever the client sent.
    await withTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '1' }, async (proxied) => {
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

      // A client with an IPv6 block: each address of its /64 is the same client; another /64 is not.
      const fromV6 = (address: string) =>
        callTrpc(proxied.app, 'auth.signIn', {
          input: { email: 'x@example.com', password: 'whatever' },
          headers: { 'x-forwarded-for': address },
        });
      const v6 = [];
      for (let n = 1; n <= 6; n++) v6.push((await fromV6(`2001:db8:1:2::${n.toString(16)}`)).statusCode);
      expect(v6).toEqual([400, 400, 400, 429, 429, 429]);
      expect((await fromV6('2001:db8:1:3::1')).statusCode).toBe(400);
    });
  });
});

describe('production cookies', () => {
  it('are Secure and carry the __Host- prefix: the session and the sign-up cookie', async () => {
    await withTestApp({ NODE_ENV: 'production' }, async (prod) => {
      const user = await createCustomer(prod.db);
      const signIn = await callTrpc(prod.app, 'auth.signIn', { input: { email: user.email, password: user.password } });
      const signUp = await callTrpc(prod.app, 'auth.signUp', { input: { email: 'new@example.com', password: 'secret123' } });
      for (const cookie of [signIn.setCookies.find((c) => c.startsWith('__Host-session=')), signUp.setCookies[0]]) {
        expect(cookie).toBeDefined();
        expect(cookie).toMatch(/Secure/);
        expect(cookie).toMatch(/HttpOnly/i);
        expect(cookie).toMatch(/Path=\//);
      }
      expect(signUp.setCookies[0]).toMatch(/^__Host-signup=/);
    });
  });
});
