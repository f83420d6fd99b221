import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { UPLOAD_BUCKETS } from '../../shared/schemas/admin-uploads';
import type { Db } from '../db/database';
import type { DB } from '../db/schema';
import { deleteStoredImage, DISPLAY_WIDTHS, displayCopyKey } from '../display-copies';
import { startPeriodicTask, type PeriodicTask } from '../periodic';
import { displayCopySuffix, MOCKUP_BUCKET, storageUrl, type DisplayFormat, type Storage } from './storage';

// Stored files that nothing names any more (ADR 0021): an upload whose form was abandoned, the
// mockups a later save replaced, a replaced category picture, the files of a deleted product.
// A file older than a day that no row names is deleted with its display copies and its
// image_variants row; a display copy whose original is gone goes too. Everything else stays.

/** Every bucket the app stores into: the upload route's and the mockup generator's (the demo seed uses the same). */
export const SWEPT_BUCKETS: readonly string[] = [...new Set<string>([...UPLOAD_BUCKETS, MOCKUP_BUCKET])];

/**
 * How old an unnamed file must be to go. An upload is named only when its form is saved, and a
 * mockup a moment after it is stored: a day leaves an admin's open form (and any other writer
 * between storing and saving) well alone.
 */
export const STORED_FILE_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Every column that can name a stored file: the image columns, and the free text admins write and
 * pages show (an image's address pasted into a description keeps its file too). Order lines keep
 * their picture after the product has gone. image_variants is not here: it records a file's
 * copies, it asks for no file. A new column that can hold a /storage/ address belongs here, or
 * the sweep deletes its files (tests/integration/stored-file-sweep.test.ts looks for such columns).
 */
const NAMING_COLUMNS = {
  categories: ['image_url', 'description'],
  products: ['image_url', 'front_art_url', 'back_art_url', 'front_mockup_url', 'back_mockup_url', 'description'],
  product_colours: ['front_blank_url', 'back_blank_url', 'front_mockup_url', 'back_mockup_url'],
  order_items: ['product_image'],
  artwork_library: ['artwork_url', 'description'],
  mockup_templates: ['front_template_url', 'back_template_url'],
  subscription_plans: ['description', 'features'],
  store_settings: ['payment_instructions', 'tracking_url_template'],
} as const satisfies { [Table in keyof DB]?: readonly (keyof DB[Table] & string)[] };

/**
 * A stored file's name inside any text: "/<bucket>/<key>", so that "/storage/mockups/a.png", an
 * absolute address of the store and a CDN's (S3_PUBLIC_URL) all name mockups/a.png.
 */
const NAMED_FILE = new RegExp(`/(${SWEPT_BUCKETS.join('|')})/([A-Za-z0-9][A-Za-z0-9._-]*)`, 'g');

/** Keys of the stored files the database names, by bucket: one query over every naming column. */
async function namedFiles(db: Db): Promise<Map<string, Set<string>>> {
  const mentionsBucket = `/(${SWEPT_BUCKETS.join('|')})/`;
  const selects = Object.entries(NAMING_COLUMNS).flatMap(([table, columns]) =>
    columns.map(
      (column) => sql`select ${sql.ref(column)}::text as value from ${sql.table(table)} where ${sql.ref(column)}::text ~ ${mentionsBucket}`,
    ),
  );
  // UNION, not UNION ALL: a picture every order line of a bestseller names comes back once.
  const { rows } = await sql<{ value: string }>`${sql.join(selects, sql` union `)}`.execute(db);
  const named = new Map<string, Set<string>>(SWEPT_BUCKETS.map((bucket) => [bucket, new Set()]));
  for (const { value } of rows) {
    for (const [, bucket, key] of value.matchAll(NAMED_FILE)) {
      const keys = named.get(bucket!)!;
      keys.add(key!);
      // In a sentence the full stop after an address reads as part of it: both are kept.
      keys.add(key!.replace(/[._-]+$/, ''));
    }
  }
  return named;
}

const COPY_NAME = /^(.+)\.(\d+)w\.(avif|webp)$/;
const LARGEST_WIDTH = Math.max(...DISPLAY_WIDTHS);

/**
 * Which of `originals` a display copy was made from (displayCopyKey), if any: the key before the
 * suffix, or for a key too long to take one, the original whose hash the copy's name carries.
 */
function copyOwner(originals: ReadonlySet<string>): (key: string) => string | undefined {
  // Copies are never wider than the largest width, so an original whose largest copy has a plain
  // name has plain names for all of them.
  const hashed = [...originals].filter(
    (key) => displayCopyKey(key, LARGEST_WIDTH, 'avif') !== key + displayCopySuffix(LARGEST_WIDTH, 'avif'),
  );
  return (key) => {
    const match = COPY_NAME.exec(key);
    if (!match) return undefined;
    const [, stem, width, format] = match;
    const isCopyOf = (original: string) => displayCopyKey(original, Number(width), format as DisplayFormat) === key;
    if (originals.has(stem!) && isCopyOf(stem!)) return stem;
    return hashed.find(isCopyOf);
  };
}

export interface SweepResult {
  /** Originals deleted with their display copies and image_variants rows. */
  images: number;
  /** Display copies deleted on their own, their original gone. */
  copies: number;
}

/** Another process held the sweep's lock: it is sweeping now, and this run did nothing. */
export const SWEPT_ELSEWHERE = 'swept elsewhere';
export type SweepOutcome = SweepResult | typeof SWEPT_ELSEWHERE;

export interface SweepDeps {
  db: Db;
  storage: Storage;
  /**
   * Other processes use the database (a PostgreSQL server): one sweeps at a time, under an
   * advisory lock. Not on the embedded one: one process, whose runs never overlap, and a
   * connection held for the lock would be the only one every request shares.
   */
  shared: boolean;
}

export interface SweepOptions {
  /** Files stored before this may go: STORED_FILE_GRACE_MS ago unless given. */
  olderThan?: Date;
  /** Aborted (shutdown): no more deletions; what was deleted is counted. */
  signal?: AbortSignal;
}

async function sweepBucket(
  { db, storage }: SweepDeps,
  bucket: string,
  files: ReadonlyMap<string, Date>,
  named: ReadonlySet<string>,
  olderThan: Date,
  signal: AbortSignal | undefined,
  result: SweepResult,
): Promise<void> {
  const isOld = (key: string) => files.get(key)! < olderThan;
  const originals = [...files.keys()].filter((key) => !COPY_NAME.test(key));
  // A named original whose file is lost still owns its copies: pages may show them.
  const ownerOf = copyOwner(new Set([...originals, ...[...named].filter((key) => !COPY_NAME.test(key))]));
  // Named itself, or through one of its copies (an address copied from a page is a copy's).
  const wanted = new Set(named);
  for (const key of named) {
    const owner = ownerOf(key);
    if (owner) wanted.add(owner);
  }

  for (const key of originals) {
    if (signal?.aborted) return;
    if (wanted.has(key) || !isOld(key)) continue;
    await deleteStoredImage(db, storage, storageUrl(bucket, key));
    result.images++;
  }
  for (const key of files.keys()) {
    if (signal?.aborted) return;
    // A copy whose original was listed follows it: kept with it, or deleted by deleteStoredImage
    // (one it missed, of a width with no record, is a copy without its original next time).
    if (!COPY_NAME.test(key) || wanted.has(key) || !isOld(key) || ownerOf(key) !== undefined) continue;
    await storage.delete(bucket, key);
    result.copies++;
  }
}

async function sweep(deps: SweepDeps, olderThan: Date, signal: AbortSignal | undefined): Promise<SweepResult> {
  const result: SweepResult = { images: 0, copies: 0 };
  if (signal?.aborted) return result;
  // Listed first, names read after: a file named while the buckets are listed is named in what is
  // read. A listing or a read that fails throws before anything is deleted.
  const listings = new Map<string, Map<string, Date>>();
  for (const bucket of SWEPT_BUCKETS) {
    const files = new Map<string, Date>();
    for await (const { key, lastModified } of deps.storage.list(bucket)) files.set(key, lastModified);
    listings.set(bucket, files);
  }
  const named = await namedFiles(deps.db);
  for (const [bucket, files] of listings) {
    await sweepBucket(deps, bucket, files, named.get(bucket)!, olderThan, signal, result);
  }
  return result;
}

const SWEEP_LOCK = sql`hashtextextended('stored-file-sweep', 0)`;
/** Well within the app's connection silence limit (APP_CONNECTION_SILENCE_MS). */
const LOCK_HEARTBEAT_MS = 10_000;

/**
 * Deletes the stored files nothing names that are older than `olderThan`, with their display
 * copies and image_variants rows, and display copies whose original is gone. On a PostgreSQL
 * server only one process sweeps at a time: another that finds the lock taken does nothing
 * (SWEPT_ELSEWHERE). Throws, having deleted nothing, when the storage cannot be listed or the
 * names cannot be read.
 */
export async function sweepStoredFiles(deps: SweepDeps, options: SweepOptions = {}): Promise<SweepOutcome> {
  const olderThan = options.olderThan ?? new Date(Date.now() - STORED_FILE_GRACE_MS);
  if (!deps.shared) return sweep(deps, olderThan, options.signal);
  return deps.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${SWEEP_LOCK}) as locked`.execute(connection);
    if (!rows[0]?.locked) return SWEPT_ELSEWHERE;
    // The lock's connection says something now and then, or a long sweep would look like a dead
    // connection and be dropped, the lock with it.
    const heartbeat = setInterval(() => void sql`select 1`.execute(connection).catch(() => undefined), LOCK_HEARTBEAT_MS);
    try {
      return await sweep(deps, olderThan, options.signal);
    } finally {
      clearInterval(heartbeat);
      // A connection lost meanwhile took its lock with it.
      await sql`select pg_advisory_unlock(${SWEEP_LOCK})`.execute(connection).catch(() => undefined);
    }
  });
}

/** How often a process sweeps; on a PostgreSQL server, the one that finds the lock free does. */
export const SWEEP_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** The first sweep after start-up: sooner than the interval, so a process restarted more often (each deploy) still sweeps. */
export const FIRST_SWEEP_AFTER_MS = 10 * 60 * 1000;

/**
 * Sweeps in the background (server.ts): first `firstAfterMs` after start-up, then every
 * `intervalMs`. What a run deleted is logged at info level, a failure at error level, and the next
 * run still comes. stop() (shutdown) ends a run in progress after the file in hand.
 */
export function startStoredFileSweep(
  deps: SweepDeps & { log: Pick<FastifyBaseLogger, 'info' | 'error'> },
  { firstAfterMs = FIRST_SWEEP_AFTER_MS, intervalMs = SWEEP_INTERVAL_MS }: { firstAfterMs?: number; intervalMs?: number } = {},
): PeriodicTask<SweepOutcome> {
  const onResult = (outcome: SweepOutcome) => {
    if (outcome !== SWEPT_ELSEWHERE && outcome.images + outcome.copies > 0) {
      deps.log.info(outcome, 'stored files nothing names were deleted');
    }
  };
  const onError = (error: unknown) => deps.log.error({ err: error }, 'sweep of stored files failed');
  const task = startPeriodicTask({ intervalMs, run: (signal) => sweepStoredFiles(deps, { signal }), onResult, onError });
  const first = setTimeout(() => void task.runNow().then(onResult, onError), firstAfterMs);
  first.unref();
  return {
    runNow: () => task.runNow(),
    async stop() {
      clearTimeout(first);
      await task.stop();
    },
  };
}
