import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { parseStorageUrl } from '../storage/storage';

// Print files are for admins only (docs/adr/0014); the provider downloads them through addresses
// signed with the store's own secret (store_settings.file_link_secret) that stop working after 7 days.

export const PRINT_FILE_LINK_DAYS = 7;

/** Records on each line of the order the print files its product has now: what the order prints, whatever changes later. */
export async function snapshotPrintFiles(db: Db, orderId: string): Promise<void> {
  await sql`
    UPDATE order_items i SET front_print_url = p.front_art_url, back_print_url = p.back_art_url
    FROM products p WHERE p.id = i.product_id AND i.order_id = ${orderId}
  `.execute(db);
}

const linkSignature = (secret: string, bucket: string, key: string, expires: number) =>
  createHmac('sha256', secret).update(`${bucket}/${key}:${expires}`).digest('hex');

export async function fileLinkSecret(db: Db): Promise<string> {
  const row = await db.selectFrom('store_settings').select('file_link_secret').executeTakeFirstOrThrow();
  return row.file_link_secret;
}

/** The file's address for someone without a session, good for PRINT_FILE_LINK_DAYS; null for an address that is not a stored file. */
export function signedFileUrl(publicUrl: string, secret: string, storedUrl: string, now: Date = new Date()): string | null {
  const parsed = parseStorageUrl(storedUrl);
  if (!parsed) return null;
  const expires = Math.floor(now.getTime() / 1000) + PRINT_FILE_LINK_DAYS * 24 * 60 * 60;
  const signature = linkSignature(secret, parsed.bucket, parsed.key, expires);
  return `${publicUrl}${storedUrl}?expires=${expires}&signature=${signature}`;
}

/** Whether a request's `expires` and `signature` open this file now. */
export function validFileLink(secret: string, bucket: string, key: string, expires: unknown, signature: unknown): boolean {
  if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature))
    return false;
  const at = Number(expires);
  if (at * 1000 < Date.now()) return false;
  const expected = Buffer.from(linkSignature(secret, bucket, key, at), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
