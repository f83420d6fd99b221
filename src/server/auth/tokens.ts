import { sha256 } from '@oslojs/crypto/sha2';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import type { Db } from '../db/database';
import type { AuthTokenPurpose } from '../db/schema';

// Single-use tokens sent by email (password reset, email confirmation). Only a SHA-256 of the
// token is stored; using one marks it used in the same statement that checks it.

function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

const hashSecret = (secret: string) => sha256(new TextEncoder().encode(secret));

/** A live token's user, and the hash of the browser secret it was made for (confirmation links). */
export interface AuthTokenLink {
  userId: string;
  browserSecretHash: Uint8Array | null;
}

/** A new token, of which only the hash is stored; `browserSecret` ties it to the browser holding it (see cookies.ts). */
export async function createAuthToken(
  db: Db,
  userId: string,
  purpose: AuthTokenPurpose,
  ttlMs: number,
  browserSecret?: string,
): Promise<string> {
  const token = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      expires_at: new Date(Date.now() + ttlMs),
      ...(browserSecret === undefined ? {} : { browser_secret_hash: hashSecret(browserSecret) }),
    })
    .execute();
  return token;
}

/** Whether the token was made for the browser holding `browserSecret`, compared in constant time. */
export function madeForBrowser(link: AuthTokenLink, browserSecret: string | undefined): boolean {
  if (!link.browserSecretHash || browserSecret === undefined) return false;
  return constantTimeEqual(hashSecret(browserSecret), new Uint8Array(link.browserSecretHash));
}

/** The token's link if it is unused and unexpired; does not use it up. */
export async function peekAuthToken(db: Db, token: string, purpose: AuthTokenPurpose): Promise<AuthTokenLink | null> {
  const row = await db
    .selectFrom('auth_tokens')
    .select(['user_id', 'browser_secret_hash'])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date().toISOString())
    .executeTakeFirst();
  return row ? { userId: row.user_id, browserSecretHash: row.browser_secret_hash } : null;
}

/** Uses a token up and returns its link, or null when it is unknown, used, expired or for another purpose. */
export async function consumeAuthToken(db: Db, token: string, purpose: AuthTokenPurpose): Promise<AuthTokenLink | null> {
  const row = await db
    .updateTable('auth_tokens')
    .set({ used_at: new Date() })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date().toISOString())
    .returning(['user_id', 'browser_secret_hash'])
    .executeTakeFirst();
  return row ? { userId: row.user_id, browserSecretHash: row.browser_secret_hash } : null;
}

/**
 * Ends every outstanding token of those kinds, e.g. the emailed links that sign their owner in
 * (reset and confirmation links) once the password changes: whoever saw an older one must not get in.
 */
export async function revokeAuthTokens(db: Db, userId: string, ...purposes: [AuthTokenPurpose, ...AuthTokenPurpose[]]): Promise<void> {
  await db
    .updateTable('auth_tokens')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}
