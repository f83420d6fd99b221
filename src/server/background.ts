import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for, so its answer takes the same time whatever the
 * work finds (a reset request for a known or an unknown address). Shutdown waits for it, so
 * nothing started is cut off.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  /**
   * Runs `task` once `startAfter` resolves: the request's answer sent (RequestScope.answerSent).
   * Started before that, its first steps (a lookup on the embedded database runs on this thread)
   * would delay the answer by what they find.
   */
  run(task: () => Promise<void>, startAfter: Promise<void>, log: Pick<FastifyBaseLogger, 'error'>, what: string): void {
    const running: Promise<void> = startAfter
      .then(task)
      .catch((error: unknown) => log.error({ err: error }, `${what} failed`))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /**
   * Runs work a request waits for (an admin's "Process Queue") so that shutdown can stop it:
   * `signal` is aborted when the server starts closing, and closing waits for the work to end.
   */
  async stoppable<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const running = task(this.stopping.signal);
    const tracked: Promise<void> = running.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(tracked);
    try {
      return await running;
    } finally {
      this.pending.delete(tracked);
    }
  }

  /** Asks stoppable work to stop (between steps); what is in hand is finished. */
  stop(): void {
    this.stopping.abort();
  }

  /** Resolves when everything started so far has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
