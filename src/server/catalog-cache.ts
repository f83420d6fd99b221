import type { EventHub } from './events/events';

/**
 * The storefront's catalog reads (home, shop, category and product pages) held in this process
 * (issue 12): nearly every visit asks for the same few answers, and they change only when the
 * catalog is edited. Every write to products, categories or display copies, in any process,
 * reaches every process as a `catalog_changed` event (a trigger sends it at commit) and empties
 * the cache; the process that made an admin write also empties it at once (init.ts), so the
 * writer's next page shows the change. Entries also expire, a bound on how stale a process can
 * be if it ever misses an event (its listening connection lost, say).
 */
export class CatalogCache {
  private readonly entries = new Map<string, { value: Promise<unknown>; expiresAt: number }>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;

  constructor(options: { maxEntries?: number; ttlMs?: number } = {}) {
    this.maxEntries = options.maxEntries ?? 500;
    this.ttlMs = options.ttlMs ?? 60_000;
  }

  /** Empties the cache whenever the hub relays a catalog change or may have missed one, until the hub stops. */
  follow(events: EventHub): void {
    void (async () => {
      for await (const event of events.subscribe(undefined)) {
        if (event.type === 'catalog_changed' || event.type === 'events_missed') this.invalidate();
      }
    })();
  }

  /**
   * The cached answer for `key`, or `load()`'s. Concurrent readers of a missing key share one
   * load. The promise is stored as the load starts, so an invalidation during the load drops
   * it too: a read begun before a change never lands in the cache after it. An answer `keep`
   * refuses is given to the readers that shared its load and then dropped.
   */
  read<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) {
      // Map keeps insertion order: moving the entry to the end makes the first one the least recently read.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.value as Promise<T>;
    }
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const drop = () => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    };
    // A failed load is not an answer to keep either.
    value.then((answer) => keep(answer) || drop(), drop);
    return value;
  }

  invalidate(): void {
    this.entries.clear();
  }
}
