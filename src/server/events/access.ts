import { TRPCError } from '@trpc/server';
import { isAdmin } from '../auth/admin';
import type { Db } from '../db/database';
import { ADMIN_REQUIRED } from '../trpc/init';
import type { EventHub, StoreEvent } from './events';

// A live stream is opened by a signed-in request, and lives far longer than that request: its
// session can end (sign-out, a password change, expiry) and its user can lose a right (demotion
// from admin) while it is open. Every signed-in stream reads its events through here, so it ends
// then instead of delivering to someone who may no longer see them.

export const SESSION_ENDED = 'Your session has ended. Please sign in again.';
export const SERVER_RESTARTING = 'The server is restarting';
export const TOO_MANY_STREAMS = 'Too many live connections are open for this account. Close some windows and try again.';

/** What a signed-in subscription procedure's context gives: the services and the caller's session. */
export interface StreamContext {
  db: Db;
  events: EventHub;
  session: { id: string; user: { id: string } };
}

export interface StreamAccess {
  /** The events this stream delivers; the rest are dropped (those about the user's own access still prompt a check). */
  wanted: (event: StoreEvent) => boolean;
  /** An admin stream: it ends when the user is no longer an admin. */
  admin?: boolean;
}

const TICK = Symbol('tick');

/**
 * The hub's `wanted` events from this call on (listening starts at once), for as long as the
 * stream's session lasts and, for an admin stream, its user stays an admin. Access is checked again
 * before every event handed out, as soon as the hub says the user's sessions or account changed,
 * at the session's expiry, and at least every `events.accessRecheckMs` (a change no event
 * announced). A failed check throws UNAUTHORIZED or FORBIDDEN: the SSE response ends with that
 * error and the client does not reconnect. When the hub stops (the server is closing) it throws
 * SERVICE_UNAVAILABLE instead, a code the client retries: the page reconnects to a process that
 * is still running. A user who holds the most streams the hub allows gets TOO_MANY_REQUESTS.
 */
export function eventsWhileAllowed(ctx: StreamContext, access: StreamAccess, signal: AbortSignal | undefined): AsyncIterable<StoreEvent> {
  const { db, events, session } = ctx;
  const userId = session.user.id;
  const ended = new AbortController();
  // Ends when the reader leaves or the stream ends, whether or not it was ever read.
  const until = signal ? AbortSignal.any([signal, ended.signal]) : ended.signal;
  if (!events.admitStream(userId, until)) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: TOO_MANY_STREAMS });
  const source = events.subscribe(until);
  // The request that opened the stream checked the session just now.
  let nextCheckAt = Date.now() + events.accessRecheckMs;

  const check = async () => {
    const row = await db.selectFrom('sessions').select('expires_at').where('id', '=', session.id).executeTakeFirst();
    const expiresAt = row ? new Date(row.expires_at).getTime() : 0;
    if (expiresAt <= Date.now()) throw new TRPCError({ code: 'UNAUTHORIZED', message: SESSION_ENDED });
    if (access.admin && !(await isAdmin(db, userId))) throw new TRPCError({ code: 'FORBIDDEN', message: ADMIN_REQUIRED });
    nextCheckAt = Math.min(Date.now() + events.accessRecheckMs, expiresAt);
  };

  const concernsAccess = (event: StoreEvent) =>
    event.type === 'events_missed' || ((event.type === 'sessions_ended' || event.type === 'customer_changed') && event.userId === userId);

  return (async function* () {
    const iterator = source[Symbol.asyncIterator]();
    let pending = iterator.next();
    try {
      for (;;) {
        let timer: NodeJS.Timeout | undefined;
        const due = new Promise<typeof TICK>((resolve) => {
          timer = setTimeout(() => resolve(TICK), Math.max(0, nextCheckAt - Date.now()));
          timer.unref();
        });
        const next = await Promise.race([pending, due]).finally(() => clearTimeout(timer));
        if (next === TICK) {
          await check();
          continue;
        }
        if (next.done) {
          if (events.closed && !signal?.aborted) throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: SERVER_RESTARTING });
          return;
        }
        pending = iterator.next();
        const event = next.value;
        const deliver = access.wanted(event);
        if (deliver || concernsAccess(event)) await check();
        if (deliver) yield event;
      }
    } finally {
      // Ends the hub subscription, so the read still pending settles and nothing stays listening.
      ended.abort();
    }
  })();
}
