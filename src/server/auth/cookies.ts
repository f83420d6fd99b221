import type { FastifyReply, FastifyRequest } from 'fastify';
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
