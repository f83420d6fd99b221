import { sha256 } from '@oslojs/crypto/sha2';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import type { Db } from '../db/database';
import { publishEvent } from '../events/events';

// Sessions after Lucia's current design: the token is "<id>.<secret>", the secret is 256 random
// bits, and only its SHA-256 is stored, so a leaked sessions table cannot be replayed.

export interface SessionUser {
  id: string;
  email: string;
  emailConfirmed: boolean;
}

export interface ValidatedSession {
  sessionId: string;
  user: SessionUser;
  expiresAt: Date;
  /** The expiry moved forward: the cookie must be sent again with the new date. */
  renewed: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** "<id>.<secret>" in lower-case base32, as createSession makes them. */
const SESSION_TOKEN = /^[a-z2-7]{1,64}\.[a-z2-7]{1,128}$/;

function randomString(bytes: number): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));
}

function hashSecret(secret: string): Uint8Array {
  return sha256(new TextEncoder().encode(secret));
}

export async function createSession(db: Db, userId: string, lifetimeDays: number): Promise<{ token: string; expiresAt: Date }> {
  const id = randomString(16);
  const secret = randomString(32);
  const expiresAt = new Date(Date.now() + lifetimeDays * DAY_MS);
  await db
    .insertInto('sessions')
    .values({ id, secret_hash: hashSecret(secret), user_id: userId, expires_at: expiresAt })
    .execute();
  return { token: `${id}.${secret}`, expiresAt };
}

/** Checks a session token; extends the session when it is past half its lifetime (sliding expiry). */
export async function validateSessionToken(db: Db, token: string, lifetimeDays: number): Promise<ValidatedSession | null> {
  // Only what createSession makes reaches the database (a NUL byte, say, would make it fail).
  if (!SESSION_TOKEN.test(token)) return null;
  const [id, secret] = token.split('.') as [string, string];

  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.secret_hash',
      'sessions.expires_at',
      'users.id as user_id',
      'users.email',
      'users.email_confirmed_at',
    ])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  if (!constantTimeEqual(hashSecret(secret), new Uint8Array(row.secret_hash))) return null;

  const now = Date.now();
  let expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= now) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return null;
  }
  const lifetimeMs = lifetimeDays * DAY_MS;
  const renewed = expiresAt.getTime() - now < lifetimeMs / 2;
  if (renewed) {
    expiresAt = new Date(now + lifetimeMs);
    await db
      .updateTable('sessions')
      .set({ expires_at: expiresAt, last_used_at: new Date(now) })
      .where('id', '=', id)
      .execute();
  }
  return {
    sessionId: row.id,
    user: { id: row.user_id, email: row.email, emailConfirmed: row.email_confirmed_at !== null },
    expiresAt,
    renewed,
  };
}

// Each end of a session is announced, so live streams opened with it end at once (delivered on commit).

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  const ended = await db.deleteFrom('sessions').where('id', '=', sessionId).returning('user_id').executeTakeFirst();
  if (ended) await publishEvent(db, { type: 'sessions_ended', userId: ended.user_id });
}

export async function invalidateUserSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await publishEvent(db, { type: 'sessions_ended', userId });
}
