import pLimit, { type LimitFunction } from 'p-limit';

// Server rendering is the one expensive thing a storefront request can ask for: React's render
// runs on the event loop, and a burst of pages nobody has asked for yet (after a catalog change,
// a crawler, a flood of made-up addresses) would otherwise make every request, kept pages and the
// API included, wait behind it into timeouts. Renders take turns, a few at a time, and a page
// whose turn would come too late is refused at once, with a time to come back.

/** Until the first render ends, what one is taken to cost. */
const FIRST_GUESS_MS = 50;
/** How much the latest render moves the running estimate of what one costs. */
const ESTIMATE_WEIGHT = 0.2;

/** A render refused because its turn would come too late; answered 503 with Retry-After. */
export class RendersBusyError extends Error {
  override name = 'RendersBusyError';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many pages are being rendered; try again shortly');
  }
}

export class RenderQueue {
  private readonly limit: LimitFunction;
  /** What a render costs, a moving average of the latest ones. */
  private typicalMs = FIRST_GUESS_MS;

  constructor(private readonly options: { concurrency: number; maxWaitMs: number }) {
    this.limit = pLimit(options.concurrency);
  }

  /**
   * Runs `render` when a place is free. If the renders ahead of it would keep it waiting longer
   * than `maxWaitMs`, it is refused at once with RendersBusyError instead.
   */
  run<T>(render: () => Promise<T>): Promise<T> {
    const waitMs = this.expectedWaitMs();
    if (waitMs > this.options.maxWaitMs) return Promise.reject(new RendersBusyError(Math.max(1, Math.ceil(waitMs / 1000))));
    return this.limit(async () => {
      const started = performance.now();
      try {
        // A render whose reads are all kept runs start to end in one go: it first lets the requests
        // that have arrived meanwhile in (kept pages and API answers go out, renders join the queue).
        await new Promise((resolve) => setImmediate(resolve));
        return await render();
      } finally {
        this.typicalMs += (performance.now() - started - this.typicalMs) * ESTIMATE_WEIGHT;
      }
    });
  }

  /** How long a render asked for now would wait: the renders ahead of it, taken a few at a time. */
  private expectedWaitMs(): number {
    const { concurrency } = this.options;
    const ahead = this.limit.activeCount + this.limit.pendingCount - concurrency + 1;
    return ahead > 0 ? Math.ceil(ahead / concurrency) * this.typicalMs : 0;
  }
}
