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
]);
export type StoreEvent = z.infer<typeof storeEvent>;

const EVENTS_CHANNEL = 'threadline_events';

export async function publishEvent(db: Db, event: StoreEvent): Promise<void> {
  await sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`.execute(db);
}

export class EventHub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private stopListening: (() => Promise<void>) | undefined;

  constructor(private readonly database: DatabaseHandle) {}

  async start(): Promise<void> {
    this.stopListening ??= await this.database.listen(EVENTS_CHANNEL, (payload) => {
      try {
        const parsed = storeEvent.safeParse(JSON.parse(payload));
        if (parsed.success) this.emitter.emit('event', parsed.data);
      } catch {
        // Not ours or malformed: ignore.
      }
    });
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  /** Events from this call on (listening starts at once, not at the first read) until the signal aborts. */
  subscribe(signal: AbortSignal | undefined): AsyncIterable<StoreEvent> {
    const stream = on(this.emitter, 'event', signal ? { signal } : {});
    return (async function* () {
      try {
        for await (const [event] of stream) yield event as StoreEvent;
      } catch (error) {
        if ((error as Error).name !== 'AbortError') throw error;
      }
    })();
  }
}
