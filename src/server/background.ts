import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for, so its answer takes the same time whatever the
 * work finds (a reset request for a known or an unknown address). Shutdown waits for it, so
 * nothing started is cut off.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  run(task: () => Promise<void>, log: Pick<FastifyBaseLogger, 'error'>, what: string): void {
    const running: Promise<void> = task()
      .catch((error: unknown) => log.error({ err: error }, `${what} failed`))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Resolves when everything started so far has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
