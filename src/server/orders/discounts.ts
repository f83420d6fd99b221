import { sql, type Selectable } from 'kysely';
import { formatCalendarDay } from '../../shared/dates';
import { addMoreToUse, CODE_ALREADY_USED, CODE_EXPIRED, CODE_NOT_VALID, CODE_USED_UP, codeStartsOn } from '../../shared/schemas/discounts';
import type { Db } from '../db/database';
import type { DiscountCodesTable } from '../db/schema';

// Discount pricing (docs/adr/0031-discount-rules-and-rounding.md), called from the checkout's
// pricing: whether a code may be used now, by whom and on what, and what it takes off each line,
// in whole cents. A use is counted in the order's own transaction (reserveDiscountUse).

export type DiscountCode = Pick<
  Selectable<DiscountCodesTable>,
  | 'id'
  | 'code'
  | 'kind'
  | 'value'
  | 'applies_to'
  | 'category_ids'
  | 'product_ids'
  | 'min_subtotal_cents'
  | 'starts_at'
  | 'ends_at'
  | 'usage_limit'
  | 'used_count'
  | 'once_per_customer'
>;

/** The columns checkout prices a code by; the admin screen reads these and its own. */
export const CODE_COLUMNS = [
  'id',
  'code',
  'kind',
  'value',
  'applies_to',
  'category_ids',
  'product_ids',
  'min_subtotal_cents',
  'starts_at',
  'ends_at',
  'usage_limit',
  'used_count',
  'once_per_customer',
] as const;

/** A code refused, with the words the shopper sees under the field. */
export class DiscountRefused extends Error {
  override name = 'DiscountRefused';
}

/** The active code spelt so, whatever its case; null when there is none. */
export function findDiscountCode(db: Db, code: string): Promise<DiscountCode | undefined> {
  return db
    .selectFrom('discount_codes')
    .select(CODE_COLUMNS)
    .where(sql<string>`lower(code)`, '=', code.toLowerCase())
    .where('is_active', '=', true)
    .executeTakeFirst();
}

/** A line as the discount sees it: what it costs before the discount, and what it is. */
export interface DiscountLine {
  productId: string;
  categoryId: string | null;
  totalCents: number;
}

/** Whether a code gives something off this line. */
function applies(code: DiscountCode, line: DiscountLine): boolean {
  if (code.applies_to === 'categories') return line.categoryId !== null && code.category_ids.includes(line.categoryId);
  if (code.applies_to === 'products') return code.product_ids.includes(line.productId);
  return true;
}

/**
 * What the code takes off each line, in cents. A percentage is taken per line and rounded half
 * up (25 % of $19.99 is $5.00), so the order's discount is the sum of its lines'; 100 % takes
 * exactly the line. A fixed amount is taken from the lines it applies to in order, never more than
 * a line costs, so neither a line nor the order goes below $0.00. Free shipping takes nothing off
 * the lines.
 */
export function lineDiscounts(
  code: Pick<DiscountCode, 'kind' | 'value' | 'applies_to' | 'category_ids' | 'product_ids'>,
  lines: readonly DiscountLine[],
): number[] {
  const rule = code as DiscountCode;
  if (code.kind === 'percent') {
    const percent = code.value ?? 0;
    return lines.map((line) => (applies(rule, line) ? Math.floor((line.totalCents * percent + 50) / 100) : 0));
  }
  if (code.kind === 'amount') {
    let left = code.value ?? 0;
    return lines.map((line) => {
      if (!applies(rule, line)) return 0;
      const off = Math.min(left, line.totalCents);
      left -= off;
      return off;
    });
  }
  return lines.map(() => 0);
}

/**
 * Refuses a code that cannot be used now on this order by this customer (null: a visitor not yet
 * signed in, whose once-per-customer is checked when the order is placed), with the shopper's words.
 */
export async function checkDiscountCode(
  db: Db,
  code: DiscountCode | undefined,
  order: { customerId: string | null; subtotalCents: number; lines: readonly DiscountLine[] },
  now = new Date(),
): Promise<DiscountCode> {
  if (!code) throw new DiscountRefused(CODE_NOT_VALID);
  if (code.starts_at && new Date(code.starts_at) > now)
    throw new DiscountRefused(codeStartsOn(formatCalendarDay(code.starts_at.slice(0, 10))));
  if (code.ends_at && new Date(code.ends_at) <= now) throw new DiscountRefused(CODE_EXPIRED);
  if (code.usage_limit !== null && code.used_count >= code.usage_limit) throw new DiscountRefused(CODE_USED_UP);
  if (code.once_per_customer && order.customerId && (await usedBy(db, code.id, order.customerId))) {
    throw new DiscountRefused(CODE_ALREADY_USED);
  }
  if (code.min_subtotal_cents !== null && order.subtotalCents < code.min_subtotal_cents) {
    throw new DiscountRefused(addMoreToUse(code.min_subtotal_cents - order.subtotalCents));
  }
  if (code.kind !== 'free_shipping' && !order.lines.some((line) => applies(code, line))) throw new DiscountRefused(CODE_NOT_VALID);
  return code;
}

async function usedBy(db: Db, codeId: string, customerId: string): Promise<boolean> {
  const use = await db
    .selectFrom('discount_uses')
    .select('id')
    .where('discount_code_id', '=', codeId)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return use !== undefined;
}

/**
 * Counts one use of the code for the order, in the order's transaction: a guarded update that
 * takes a use only while one is left, so of many checkouts at once for the last use exactly one
 * gets it. The update holds the code's row until the transaction ends, so a second order of the
 * same customer waits and then sees the first's use ("once per customer", by account).
 */
export async function reserveDiscountUse(trx: Db, code: DiscountCode, orderId: string, customerId: string | null): Promise<void> {
  const taken = await trx
    .updateTable('discount_codes')
    .set({ used_count: sql<number>`used_count + 1` })
    .where('id', '=', code.id)
    .where('is_active', '=', true)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('used_count', '<', eb.ref('usage_limit'))]))
    .returning('id')
    .executeTakeFirst();
  if (!taken) throw new DiscountRefused(CODE_USED_UP);
  if (code.once_per_customer && customerId && (await usedBy(trx, code.id, customerId))) throw new DiscountRefused(CODE_ALREADY_USED);
  await trx.insertInto('discount_uses').values({ discount_code_id: code.id, order_id: orderId, customer_id: customerId }).execute();
}

/** Gives back the use an order took (it was cancelled before it was paid). In the cancelling transaction. */
export async function releaseDiscountUse(trx: Db, orderId: string): Promise<void> {
  const use = await trx.deleteFrom('discount_uses').where('order_id', '=', orderId).returning('discount_code_id').executeTakeFirst();
  if (!use) return;
  await trx
    .updateTable('discount_codes')
    .set({ used_count: sql<number>`greatest(used_count - 1, 0)` })
    .where('id', '=', use.discount_code_id)
    .execute();
}
