import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EMAIL_CONFIRMATION_TTL_MS } from '../../shared/constants';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { validateSessionToken, type SessionUser } from './session';

// The session cookie: HttpOnly, SameSite=Lax, Path=/, and Secure in production, where the
// __Host- prefix also pins it to our exact origin.

const sessionCookieName = (config: Config) => (config.isProduction ? '__Host-session' : 'session');

export function setSessionCookie(config: Config, res: FastifyReply, token: string, expiresAt: Date): void {
  res.setCookie(sessionCookieName(config), token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: config.isProduction,
    expires: expiresAt,
  });
}

export function clearSessionCookie(config: Config, res: FastifyReply): void {
  res.clearCookie(sessionCookieName(config), { httpOnly: true, sameSite: 'lax', path: '/', secure: config.isProduction });
}

/**
 * The request's session, if its cookie holds a valid token; a renewed one is re-sent. A cookie whose
 * session is gone is left alone, not cleared: a sign-in in the same browser (a confirmation link
 * opened while signed in) may have set a new one while this request was on its way, and clearing
 * would end that. It names no one here, and the browser drops it when it expires.
 */
export async function readSession(
  config: Config,
  db: Db,
  req: FastifyRequest,
  res: FastifyReply,
): Promise<{ id: string; user: SessionUser } | null> {
  const token = req.cookies[sessionCookieName(config)];
  if (!token) return null;
  const session = await validateSessionToken(db, token, config.sessionDays);
  if (!session) return null;
  if (session.renewed) setSessionCookie(config, res, token, session.expiresAt);
  return { id: session.sessionId, user: session.user };
}

// The sign-up cookie: a random secret a browser gets when it signs up (or asks for a new
// confirmation link), HttpOnly like the session's. The confirmation link made then keeps only its
// SHA-256 (auth_tokens.browser_secret_hash), so confirming in that browser, in any tab, is told
// apart from confirming in another one, where a stranger's sign-up may be what the link confirms
// (docs/adr/0022-confirmation-tied-to-the-sign-up-browser.md).

const signUpCookieName = (config: Config) => (config.isProduction ? '__Host-signup' : 'signup');
/** 256 random bits in lower-case base32, as markSignUpBrowser makes them. */
const SIGN_UP_SECRET = /^[a-z2-7]{52}$/;

/** The sign-up secret this browser holds, if a well-formed one. */
export function signUpSecretOf(config: Config, req: FastifyRequest): string | undefined {
  const secret = req.cookies[signUpCookieName(config)];
  return secret && SIGN_UP_SECRET.test(secret) ? secret : undefined;
}

/**
 * The secret to tie a new confirmation link to this browser: the one it holds (so every sign-up it
 * made stays tied), or a new one; the cookie is sent again to last as long as the new link.
 */
export function markSignUpBrowser(config: Config, req: FastifyRequest, res: FastifyReply): string {
  const secret = signUpSecretOf(config, req) ?? encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  res.setCookie(signUpCookieName(config), secret, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: config.isProduction,
    expires: new Date(Date.now() + EMAIL_CONFIRMATION_TTL_MS),
  });
  return secret;
}
