import { EventEmitter, on } from 'node:events';
import { sql } from 'kysely';
import { z } from 'zod';
import type { DatabaseHandle, Db } from '../db/database';

// Live updates across every app process: a write NOTIFYs inside its own transaction (so
// nothing is announced for a rolled-back change), each process LISTENs once and fans the
// events out to its tRPC subscriptions.

const storeEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('contact_submissions_changed') }),
  z.object({ type: z.literal('customer_changed'), userId: z.uuid() }),
  // One or more of the user's sessions were deleted (sign-out, a password change or reset): their
  // open streams check their own session at once (events/access.ts).
  z.object({ type: z.literal('sessions_ended'), userId: z.uuid() }),
  // Products, categories or display copies were written (a trigger sends it: migrations/0006).
  z.object({ type: z.literal('catalog_changed') }),
]);
export type StoreEvent =
  | z.infer<typeof storeEvent>
  // Said by the hub itself, never sent: the connection that listens was lost and is back, and any
  // of the events above may have been sent meanwhile. Whoever follows something reads it again.
  | { type: 'events_missed' }
  // Said by the hub itself: the connection that listens is lost. Until `events_missed` says it is
  // back, no event arrives, so nothing can be kept on the promise of hearing about its change.
  | { type: 'events_lost' };

const EVENTS_CHANNEL = 'threadline_events';

export async function publishEvent(db: Db, event: StoreEvent): Promise<void> {
  await sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`.execute(db);
}

export interface EventHubOptions {
  /** How often a signed-in stream checks its session and rights when no event prompts it; 30 s by default. */
  accessRecheckMs?: number;
  /**
   * How many streams one user may hold open on this process; 10 by default. A browser opens one
   * (its tabs share it), so more is someone holding sockets, timers and session checks open.
   */
  maxStreamsPerUser?: number;
}

export class EventHub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private stopListening: (() => Promise<void>) | undefined;
  private closing = new AbortController();
  private readonly streamsByUser = new Map<string, number>();
  private listening = false;
  readonly accessRecheckMs: number;
  private readonly maxStreamsPerUser: number;

  constructor(
    private readonly database: DatabaseHandle,
    options: EventHubOptions = {},
  ) {
    this.accessRecheckMs = options.accessRecheckMs ?? 30_000;
    this.maxStreamsPerUser = options.maxStreamsPerUser ?? 10;
  }

  /** Counts a stream of the user's until `until` aborts; false, counting nothing, when they hold the most already. */
  admitStream(userId: string, until: AbortSignal): boolean {
    if (until.aborted) return true;
    const open = this.streamsByUser.get(userId) ?? 0;
    if (open >= this.maxStreamsPerUser) return false;
    this.streamsByUser.set(userId, open + 1);
    until.addEventListener(
      'abort',
      () => {
        const left = (this.streamsByUser.get(userId) ?? 1) - 1;
        if (left > 0) this.streamsByUser.set(userId, left);
        else this.streamsByUser.delete(userId);
      },
      { once: true },
    );
    return true;
  }

  async start(): Promise<void> {
    if (this.closing.signal.aborted) this.closing = new AbortController();
    this.stopListening ??= await this.database.listen(
      EVENTS_CHANNEL,
      (payload) => {
        try {
          const parsed = storeEvent.safeParse(JSON.parse(payload));
          if (parsed.success) this.emit(parsed.data);
        } catch {
          // Not ours or malformed: ignore.
        }
      },
      {
        onLost: () => {
          this.listening = false;
          this.emit({ type: 'events_lost' });
        },
        onResumed: () => {
          this.listening = true;
          this.emit({ type: 'events_missed' });
        },
      },
    );
    this.listening = true;
  }

  /** Whether the connection that listens is up: false before start, after stop, and while it reconnects. */
  get connected(): boolean {
    return this.listening && !this.closing.signal.aborted;
  }

  private emit(event: StoreEvent): void {
    this.emitter.emit('event', event);
  }

  /**
   * Ends every subscription (their iterables finish) and stops listening. The server stops its
   * hub when it starts closing, so open SSE streams end instead of holding shutdown up.
   */
  async stop(): Promise<void> {
    this.closing.abort();
    await this.stopListening?.();
    this.stopListening = undefined;
    this.listening = false;
  }

  /** The hub was stopped: subscriptions ended because the server is closing, not because their reader left. */
  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /** How many subscriptions are listening now: an event published before a stream listens never reaches it. */
  get subscriptions(): number {
    return this.emitter.listenerCount('event');
  }

  /**
   * Events from this call on (listening starts at once, not at the first read) until the signal
   * aborts or the hub stops.
   */
  subscribe(signal: AbortSignal | undefined): AsyncIterable<StoreEvent> {
    const until = signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
    // on() throws at once for a signal already aborted: that subscription is simply over.
    const stream = until.aborted ? [] : on(this.emitter, 'event', { signal: until });
    return (async function* () {
      try {
        for await (const [event] of stream) yield event as StoreEvent;
      } catch (error) {
        if ((error as Error).name !== 'AbortError') throw error;
      }
    })();
  }
}
