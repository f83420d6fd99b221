import type { EventHub } from './events/events';

/**
 * The storefront's catalog reads (home, shop, category and product pages) held in this process
 *: nearly every visit asks for the same few answers, and they change only when the
 * catalog is edited. Every write to products, categories or display copies, in any process,
 * reaches every process as a `catalog_changed` event (a trigger sends it at commit) and empties
 * the cache; the process that made an admin write also empties it at once (init.ts), so the
 * writer's next page shows the change. While the listening connection is lost, nothing is kept.
 * Entries also expire, a bound on how stale a process can be if it ever misses an event unawares.
 *
 * Kept answers are in two parts, least recently read first in each (a segmented LRU): an answer
 * enters `once` when its load succeeds, and moves to `often` when it is read again there. A new
 * answer pushes out only other answers read once, so a flood of one-off reads (unknown slugs,
 * distinct searches) cannot push out the pages everyone reads. A load is shared while it runs but
 * kept only once it succeeds, so one that fails or is refused (a 404) pushes out nothing.
 */
export class CatalogCache {
  private readonly loading = new Map<string, Promise<unknown>>();
  private readonly once = new Map<string, Entry>();
  private readonly often = new Map<string, Entry>();
  private readonly maxOnce: number;
  private readonly maxOften: number;
  private readonly ttlMs: number;
  /** While the hub cannot hear of catalog changes, nothing is kept: it could not be emptied in time. */
  private deaf = false;
  /** Reads answered from what was kept, and reads that had to load (the metrics report both). */
  hits = 0;
  misses = 0;

  constructor(options: { maxEntries?: number; ttlMs?: number } = {}) {
    const maxEntries = options.maxEntries ?? 500;
    this.maxOnce = Math.ceil(maxEntries / 5);
    this.maxOften = maxEntries - this.maxOnce;
    this.ttlMs = options.ttlMs ?? 60_000;
  }

  /**
   * Empties the cache whenever the hub relays a catalog change or may have missed one, and keeps
   * nothing while the hub cannot hear of changes (its connection lost), until the hub stops.
   */
  follow(events: EventHub): void {
    void (async () => {
      for await (const { type } of events.subscribe(undefined)) {
        if (type === 'catalog_changed' || type === 'events_missed' || type === 'events_lost') this.invalidate();
        if (type === 'events_lost' || type === 'events_missed') this.deaf = type === 'events_lost';
      }
    })();
  }

  /**
   * The cached answer for `key`, or `load()`'s. Concurrent readers of a missing key share one
   * load. An invalidation during the load forgets it too: a read begun before a change never
   * lands in the cache after it. An answer `keep` refuses is given to the readers that shared
   * its load and not kept.
   */
  read<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    const now = Date.now();
    const cached = this.often.get(key) ?? this.once.get(key);
    if (cached && cached.expiresAt > now) {
      this.hits++;
      this.once.delete(key);
      this.often.delete(key);
      // Map keeps insertion order: moving the entry to the end makes the first one the least recently read.
      this.often.set(key, cached);
      const [leastRead] = this.often;
      if (this.often.size > this.maxOften && leastRead) {
        this.often.delete(leastRead[0]);
        this.keepOnce(leastRead[0], leastRead[1]);
      }
      return cached.value as Promise<T>;
    }
    this.misses++;
    const running = this.loading.get(key);
    if (running) return running as Promise<T>;
    const value = load();
    this.loading.set(key, value);
    const settle = (answer: { kept: T } | null) => {
      if (this.loading.get(key) !== value) return;
      this.loading.delete(key);
      if (answer && !this.deaf && keep(answer.kept)) this.keepOnce(key, { value, expiresAt: now + this.ttlMs });
    };
    // A failed load is not an answer to keep either.
    value.then(
      (kept) => settle({ kept }),
      () => settle(null),
    );
    return value;
  }

  invalidate(): void {
    this.loading.clear();
    this.once.clear();
    this.often.clear();
  }

  private keepOnce(key: string, entry: Entry): void {
    this.often.delete(key);
    this.once.delete(key);
    this.once.set(key, entry);
    const [leastRead] = this.once;
    if (this.once.size > this.maxOnce && leastRead) this.once.delete(leastRead[0]);
  }
}

interface Entry {
  value: Promise<unknown>;
  expiresAt: number;
}
