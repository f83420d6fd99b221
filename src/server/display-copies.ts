import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Sharp } from 'sharp';
import { plainImage, type DisplayImage, type DisplayImageType } from '../shared/display-image';
import type { Db } from './db/database';
import { IMAGE_INPUT, loadSharp } from './images';
import { displayCopySuffix, parseStorageUrl, StorageKeyTakenError, storageUrl, type DisplayFormat, type Storage } from './storage/storage';

// Display copies (docs/ARCHITECTURE.md § Client): every stored image gets smaller AVIF and WebP
// copies, stored next to it, for the storefront's srcset. Originals stay as they are, at print
// resolution, for printing. The image_variants row of an original is written once all its copies
// exist, so a row is a promise that every copy it names can be served.

/** Widths of the copies: enough steps for a phone's grid cell up to a desktop's product photo at 2x. */
export const DISPLAY_WIDTHS = [320, 640, 960, 1440] as const;
const LARGEST_DISPLAY_WIDTH = Math.max(...DISPLAY_WIDTHS);

/** Best first: a browser takes the first <source> whose type it can decode. */
export const DISPLAY_FORMATS: readonly DisplayFormat[] = ['avif', 'webp'];
const MIME_TYPES: Record<DisplayFormat, DisplayImageType> = { avif: 'image/avif', webp: 'image/webp' };
// AVIF at effort 1 (of 0-9, default 4): files 5-10% larger than at 2 and 4, but encoded in about a
// second where grainy pictures take 2 at 7 s and 4 at over a minute (1400 px of noise, measured):
// copies are made inside an admin's upload and at start-up, on small machines.
const ENCODERS: Record<DisplayFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 1 }),
  webp: (image) => image.webp({ quality: 78 }),
};

/** WebP (and the AVIF encoder) cannot make a side longer than this. */
const MAX_ENCODED_SIDE = 16_383;

/**
 * Widths of the copies of an image `width` by `height` pixels: each standard width narrower than
 * it, then its own width (at most the largest standard one). Never wider than the original: a
 * 200 px image gets one 200 px copy, an 800 px one 320, 640 and 800. A very tall image's copies
 * are as wide as keeps their height encodable (a 1000 x 17000 banner: up to 963 px).
 */
export function displayWidths(width: number, height: number): number[] {
  const largest = Math.max(1, Math.min(width, LARGEST_DISPLAY_WIDTH, Math.floor((MAX_ENCODED_SIDE * width) / height)));
  return [...DISPLAY_WIDTHS.filter((standard) => standard < largest), largest];
}

const KEY_MAX_LENGTH = 200;

/**
 * Storage key of one copy, derived from the original's key alone ("<key>.640w.avif"), so any
 * process names the same file. A key too long to take the suffix is cut and made unique again
 * with a hash of the whole key.
 */
export function displayCopyKey(key: string, width: number, format: DisplayFormat): string {
  const suffix = displayCopySuffix(width, format);
  if (key.length + suffix.length <= KEY_MAX_LENGTH) return `${key}${suffix}`;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `${key.slice(0, KEY_MAX_LENGTH - suffix.length - hash.length - 1)}-${hash}${suffix}`;
}

const copyUrl = (bucket: string, key: string, width: number, format: DisplayFormat) =>
  storageUrl(bucket, displayCopyKey(key, width, format));

/** 'made' now; 'present' before (by this or another process); 'outside' an URL this store does not keep. */
export type DisplayCopiesOutcome = 'made' | 'present' | 'outside';

/** Whether every display copy of a stored original exists: its image_variants row is written last. */
export async function hasDisplayCopies(db: Db, url: string): Promise<boolean> {
  const row = await db.selectFrom('image_variants').select('image_url').where('image_url', '=', url).executeTakeFirst();
  return row !== undefined;
}

/**
 * Makes the display copies of a stored image and records them. Idempotent and safe to run in
 * several processes at once: a copy already there (files appear whole) is kept, and the row is
 * written once. Throws when the original is missing or does not decode.
 */
export async function makeDisplayCopies(db: Db, storage: Storage, url: string): Promise<DisplayCopiesOutcome> {
  const location = parseStorageUrl(url);
  if (!location) return 'outside';
  if (await hasDisplayCopies(db, url)) return 'present';
  const bytes = await storage.get(location.bucket, location.key);
  if (!bytes) throw new Error(`${url} is missing from storage`);

  const sharp = await loadSharp();
  // Turned upright as a browser shows it (EXIF orientation), so width and height are the ones seen.
  const input = () => sharp(bytes, { ...IMAGE_INPUT, autoOrient: true });
  const { width, height } = (await input().metadata()).autoOrient;
  const widths = displayWidths(width, height);
  // Decoded and brought down to the largest copy once; every copy is encoded from those pixels.
  const { data, info } = await input()
    // Capped in height too: an image thousands of times taller than wide is one pixel wide at most.
    .resize({ width: widths.at(-1), height: MAX_ENCODED_SIDE, fit: 'inside' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });

  for (const copyWidth of widths) {
    await Promise.all(
      DISPLAY_FORMATS.map(async (format) => {
        const encoded = await ENCODERS[format](pixels().resize({ width: copyWidth, height: MAX_ENCODED_SIDE, fit: 'inside' })).toBuffer();
        try {
          await storage.put(location.bucket, displayCopyKey(location.key, copyWidth, format), encoded, MIME_TYPES[format]);
        } catch (error) {
          // Made by an earlier, interrupted run or by another process at the same time: same pixels.
          if (!(error instanceof StorageKeyTakenError)) throw error;
        }
      }),
    );
  }
  await db
    .insertInto('image_variants')
    .values({ image_url: url, width, height, display_widths: widths })
    .onConflict((oc) => oc.column('image_url').doNothing())
    .execute();
  return 'made';
}

/** Deletes a stored image: its record first (pages stop naming the copies), then the copies, then the original. */
export async function deleteStoredImage(db: Db, storage: Storage, url: string): Promise<void> {
  const location = parseStorageUrl(url);
  if (!location) return;
  const row = await db.deleteFrom('image_variants').where('image_url', '=', url).returning('display_widths').executeTakeFirst();
  // The standard widths too: copies of a run that stopped before writing the row.
  const widths = new Set<number>([...DISPLAY_WIDTHS, ...(row?.display_widths ?? [])]);
  for (const width of widths) {
    for (const format of DISPLAY_FORMATS) await storage.delete(location.bucket, displayCopyKey(location.key, width, format));
  }
  await storage.delete(location.bucket, location.key);
}

/**
 * The display images of the given URLs, in one query: a function from an URL (as a row holds it)
 * to its DisplayImage, null for no (or an empty) URL. An URL without copies is shown as it is.
 */
export async function displayImages(db: Db, urls: readonly (string | null)[]): Promise<(url: string | null) => DisplayImage | null> {
  const stored = [...new Set(urls.filter((url): url is string => !!url && parseStorageUrl(url) !== null))];
  const rows =
    stored.length === 0
      ? []
      : await db
          .selectFrom('image_variants')
          .select(['image_url', 'width', 'height', 'display_widths'])
          .where('image_url', 'in', stored)
          .execute();
  const byUrl = new Map(rows.map((row) => [row.image_url, row]));
  return (url) => {
    if (!url) return null;
    const row = byUrl.get(url);
    const location = parseStorageUrl(url);
    if (!row || !location) return plainImage(url);
    const { bucket, key } = location;
    const widths = row.display_widths;
    return {
      // For a browser that takes no <source>: the largest WebP, never the original.
      src: copyUrl(bucket, key, widths.at(-1)!, 'webp'),
      width: row.width,
      height: row.height,
      sources: DISPLAY_FORMATS.map((format) => ({
        type: MIME_TYPES[format],
        srcset: widths.map((width) => `${copyUrl(bucket, key, width, format)} ${width}w`).join(', '),
      })),
    };
  };
}

export interface BackfillDeps {
  db: Db;
  /**
   * Other processes use the database (a PostgreSQL server): each image is claimed before it is
   * encoded. Not on the embedded one: one process, and a connection held while encoding would
   * hold up every request.
   */
  shared: boolean;
  storage: Storage;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** Well within the app's connection silence limit (APP_CONNECTION_SILENCE_MS). */
const CLAIM_HEARTBEAT_MS = 10_000;

/**
 * Makes an image's copies unless another process is making them now ('claimed elsewhere': that one
 * records them, unless it dies first). Every process starts this pass at start-up; without the
 * claim, processes started together each encoded every image.
 */
async function makeUnlessClaimed(db: Db, storage: Storage, url: string): Promise<DisplayCopiesOutcome | 'claimed elsewhere'> {
  return db.connection().execute(async (connection) => {
    const lock = sql`hashtextextended(${`display-copies:${url}`}, 0)`;
    const { rows } = await sql<{ claimed: boolean }>`select pg_try_advisory_lock(${lock}) as claimed`.execute(connection);
    if (!rows[0]?.claimed) return 'claimed elsewhere';
    // The claim's connection says something now and then while the image is encoded, or a long
    // encoding would look like a dead connection and be dropped, the claim with it.
    const heartbeat = setInterval(() => void sql`select 1`.execute(connection).catch(() => undefined), CLAIM_HEARTBEAT_MS);
    try {
      return await makeDisplayCopies(db, storage, url);
    } finally {
      clearInterval(heartbeat);
      // A connection lost meanwhile took its lock with it.
      await sql`select pg_advisory_unlock(${lock})`.execute(connection).catch(() => undefined);
    }
  });
}

/**
 * Makes the copies every stored image the database points at still lacks: images stored before
 * copies existed, the demo store's, and any whose copies failed before. Storefront images first.
 * One at a time; an image that fails is logged and skipped, one another process is making is
 * counted as `elsewhere`. Stops between images once `signal` aborts.
 */
export async function makeMissingDisplayCopies(
  { db, shared, storage, log }: BackfillDeps,
  signal?: AbortSignal,
): Promise<{ made: number; failed: number; elsewhere: number }> {
  const { rows } = await sql<{ url: string }>`
    select url from (
      select image_url as url, 1 as rank from products
      union all select front_mockup_url, 1 from products
      union all select back_mockup_url, 1 from products
      union all select image_url, 2 from categories
      union all select product_image, 3 from order_items
      union all select front_art_url, 4 from products
      union all select back_art_url, 4 from products
      union all select artwork_url, 4 from artwork_library
      union all select front_template_url, 5 from mockup_templates
      union all select back_template_url, 5 from mockup_templates
    ) as referenced
    where url like '/storage/%'
      and not exists (select 1 from image_variants where image_variants.image_url = referenced.url)
    group by url
    order by min(rank), url
  `.execute(db);

  let made = 0;
  let failed = 0;
  let elsewhere = 0;
  for (const { url } of rows) {
    if (signal?.aborted) break;
    try {
      const outcome = shared ? await makeUnlessClaimed(db, storage, url) : await makeDisplayCopies(db, storage, url);
      if (outcome === 'made') made++;
      if (outcome === 'claimed elsewhere') elsewhere++;
    } catch (error) {
      failed++;
      log.warn({ err: error, url }, 'display copies of a stored image could not be made; skipped');
    }
  }
  return { made, failed, elsewhere };
}

/** How long after a pass that left images without copies the next one starts. */
const RETRY_AFTER_MS = 15 * 60 * 1000;

/**
 * Runs makeMissingDisplayCopies in the background (server.ts, at start-up): start-up does not
 * wait for it, and a failure is logged, never thrown. A pass that left images without copies (the
 * storage or the database away for a moment, say, or another process making them, which may die
 * before it records them) is followed by another `retryAfterMs` later, or those images would be
 * served at print resolution until the next start. `finished` settles when
 * the first pass is over; stop() ends the passes after the image in hand.
 */
export function startDisplayCopyBackfill(
  deps: BackfillDeps,
  retryAfterMs = RETRY_AFTER_MS,
): { finished: Promise<void>; stop(): Promise<void> } {
  const stopping = new AbortController();
  let retry: NodeJS.Timeout | undefined;
  const later = () => {
    if (stopping.signal.aborted) return;
    retry = setTimeout(() => {
      running = pass();
    }, retryAfterMs);
    retry.unref();
  };
  const pass = () =>
    makeMissingDisplayCopies(deps, stopping.signal).then(
      ({ made, failed, elsewhere }) => {
        if (made > 0 || failed > 0) deps.log.info({ made, failed }, 'display copies made for stored images');
        if (failed > 0 || elsewhere > 0) later();
      },
      (error: unknown) => {
        deps.log.error({ err: error }, 'display copies of stored images failed');
        later();
      },
    );
  let running = pass();
  return {
    finished: running,
    async stop() {
      stopping.abort();
      clearTimeout(retry);
      await running;
    },
  };
}
