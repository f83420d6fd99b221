import type { EventHub } from './events/events';

/**
 * The storefront's catalog reads (home, shop, category and product pages) held in this process:
 * nearly every visit asks for the same few answers, and they change only when the catalog is
 * edited. Every write to products, categories, display copies, plans or the store's settings, in
 * any process, reaches every process as a `catalog_changed` event (a trigger sends it at commit)
 * and empties the cache; the process that made an admin write also empties it at once (init.ts),
 * so the writer's next page shows the change. While the listening connection is lost, nothing is
 * kept. Entries also expire, a bound on how stale a process can be if it ever misses an event
 * unawares.
 *
 * Two shelves share the emptying: data (query answers, whole API answers, the sitemap) and pages
 * (whole server-rendered storefront pages, docs/adr/0026-storefront-pages-kept-with-the-catalog.md),
 * each with its own size bound, as a page weighs some fifty answers.
 *
 * Kept entries of a shelf are in two parts, least recently read first in each (a segmented LRU):
 * an entry enters `once` when its load succeeds, and moves to `often` when it is read again there.
 * A new entry pushes out only others read once, so a flood of one-off reads (unknown slugs,
 * distinct searches, a crawler walking every product) cannot push out what everyone reads. A load
 * is shared while it runs but kept only once it succeeds, so one that fails or is refused (a 404)
 * pushes out nothing.
 */
export class CatalogCache {
  private readonly loading = new Map<string, Promise<unknown>>();
  private readonly data: Shelf;
  private readonly pages: Shelf;
  private readonly ttlMs: number;
  /** While the hub cannot hear of catalog changes, nothing is kept: it could not be emptied in time. */
  private deaf = false;
  /** Reads answered from what was kept, and reads that had to load (the metrics report both). */
  hits = 0;
  misses = 0;

  constructor(options: { maxEntries?: number; maxPages?: number; ttlMs?: number } = {}) {
    this.data = new Shelf(options.maxEntries ?? 500);
    this.pages = new Shelf(options.maxPages ?? 200);
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
    return this.lookup(this.data, `data:${key}`, load, keep).value;
  }

  /** As `read`, on the pages' shelf; `kept` tells whether the page was there already (no render waited for). */
  readPage<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean): { value: Promise<T>; kept: boolean } {
    return this.lookup(this.pages, `page:${key}`, load, keep);
  }

  invalidate(): void {
    this.loading.clear();
    this.data.clear();
    this.pages.clear();
  }

  private lookup<T>(shelf: Shelf, key: string, load: () => Promise<T>, keep: (value: T) => boolean): { value: Promise<T>; kept: boolean } {
    const now = Date.now();
    const cached = shelf.take(key, now);
    if (cached) {
      this.hits++;
      return { value: cached as Promise<T>, kept: true };
    }
    this.misses++;
    const running = this.loading.get(key);
    if (running) return { value: running as Promise<T>, kept: false };
    const value = load();
    this.loading.set(key, value);
    const settle = (answer: { kept: T } | null) => {
      if (this.loading.get(key) !== value) return;
      this.loading.delete(key);
      if (answer && !this.deaf && keep(answer.kept)) shelf.keepOnce(key, { value, expiresAt: now + this.ttlMs });
    };
    // A failed load is not an answer to keep either.
    value.then(
      (kept) => settle({ kept }),
      () => settle(null),
    );
    return { value, kept: false };
  }
}

interface Entry {
  value: Promise<unknown>;
  expiresAt: number;
}

/** One size-bounded segmented LRU of the cache (see CatalogCache). */
class Shelf {
  private readonly once = new Map<string, Entry>();
  private readonly often = new Map<string, Entry>();
  private readonly maxOnce: number;
  private readonly maxOften: number;

  constructor(maxEntries: number) {
    this.maxOnce = Math.ceil(maxEntries / 5);
    this.maxOften = maxEntries - this.maxOnce;
  }

  /** The entry's value if it is kept and fresh, counted as read now. */
  take(key: string, now: number): Promise<unknown> | undefined {
    const cached = this.often.get(key) ?? this.once.get(key);
    if (!cached || cached.expiresAt <= now) return undefined;
    this.once.delete(key);
    this.often.delete(key);
    // Map keeps insertion order: moving the entry to the end makes the first one the least recently read.
    this.often.set(key, cached);
    const [leastRead] = this.often;
    if (this.often.size > this.maxOften && leastRead) {
      this.often.delete(leastRead[0]);
      this.keepOnce(leastRead[0], leastRead[1]);
    }
    return cached.value;
  }

  keepOnce(key: string, entry: Entry): void {
    this.often.delete(key);
    this.once.delete(key);
    this.once.set(key, entry);
    const [leastRead] = this.once;
    if (this.once.size > this.maxOnce && leastRead) this.once.delete(leastRead[0]);
  }

  clear(): void {
    this.once.clear();
    this.often.clear();
  }
}
