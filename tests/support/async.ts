import { TRPCError } from '@trpc/server';
import type { EventHub, StoreEvent } from '../../src/server/events/events';

/** Polls until the check holds; fails with what it was waiting for after `ms`. */
export async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Checks over `ms` that `check` keeps holding, failing the moment it does not: for what must NOT
 * happen within a time (nothing to wait for then, only a time to watch).
 */
export async function holdsFor(check: () => boolean | Promise<boolean>, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  do {
    if (!(await check())) throw new Error(`${what} stopped holding before ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (Date.now() < end);
  if (!(await check())) throw new Error(`${what} stopped holding before ${ms} ms`);
}

/** The code and message of the TRPCError a call fails with; throws if it succeeds. */
export async function trpcFailure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Records the live events a started hub delivers from now on, until stop(). */
export function recordEvents(hub: EventHub): { events: StoreEvent[]; stop: () => void } {
  const controller = new AbortController();
  const events: StoreEvent[] = [];
  void (async () => {
    for await (const event of hub.subscribe(controller.signal)) events.push(event);
  })();
  return { events, stop: () => controller.abort() };
}
