import { sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { CATEGORY_REQUIRED, NOTHING_ON_OFFER, type bulkAction, type bulkTarget } from '../../shared/schemas/admin-products';
import type { Db } from '../db/database';
import { isForeignKeyViolation } from '../db/errors';
import type { DB } from '../db/schema';
import { adminProductsMatching } from '../db/search';
import { fieldError } from '../trpc/errors';

// Bulk edits of the products list: one action over chosen products (or every product the list's
// filters show) in one transaction. The products trigger announces the change to every process's
// catalog cache as the transaction commits (ADR 0011).

type Target = z.output<typeof bulkTarget>;
type Action = z.output<typeof bulkAction>;

const MAX_PRICE = 99_999_999.99;
const MAX_TAGS = 50;

/** The target's ids, locked, so the action and its checks see the same products. */
async function targetIds(trx: Transaction<DB>, target: Target): Promise<string[]> {
  let query = trx.selectFrom('products').select('id');
  if ('ids' in target) query = query.where('id', 'in', target.ids);
  else for (const condition of (await adminProductsMatching(trx, target.matching)).conditions) query = query.where(condition);
  return (await query.orderBy('id').forUpdate().execute()).map((row) => row.id);
}

/** How many products the target names, and how many of them orders name (a delete keeps those, inactive). */
export async function bulkDeletePreview(db: Db, target: Target) {
  return db.transaction().execute(async (trx) => {
    const ids = await targetIds(trx, target);
    return { total: ids.length, withOrders: ids.length === 0 ? 0 : await withOrders(trx, ids).then((rows) => rows.length) };
  });
}

const withOrders = async (trx: Transaction<DB>, ids: string[]) =>
  (await trx.selectFrom('order_items').select('product_id').distinct().where('product_id', 'in', ids).execute()).map(
    (row) => row.product_id!,
  );

function newPrice(action: Extract<Action, { kind: 'change_price' }>) {
  const amount = action.amount.toFixed(2);
  const price = {
    set: sql<string>`${amount}::numeric`,
    raise_amount: sql<string>`price + ${amount}::numeric`,
    lower_amount: sql<string>`price - ${amount}::numeric`,
    raise_percent: sql<string>`round(price * (100 + ${action.amount}::numeric) / 100, 2)`,
    lower_percent: sql<string>`round(price * (100 - ${action.amount}::numeric) / 100, 2)`,
  }[action.change];
  return sql<string>`greatest(0.01, ${price})`;
}

/** Names shown when a bulk activation is refused; the rest are counted. */
const NAMED_AT_MOST = 3;

/** Refuses to make active a product with no colour switched on in a size it offers, as its own form does. */
async function refuseNothingOnOffer(trx: Transaction<DB>, ids: string[]) {
  const refused = await trx
    .selectFrom('products')
    .select('name')
    .where('id', 'in', ids)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('product_variants')
            .select('product_variants.id')
            .whereRef('product_variants.product_id', '=', 'products.id')
            .where('product_variants.is_enabled', '=', true)
            .where(sql<boolean>`product_variants.size = any(products.available_sizes)`),
        ),
      ),
    )
    .orderBy('name')
    .execute();
  if (refused.length === 0) return;
  const named = refused.slice(0, NAMED_AT_MOST).map((row) => row.name);
  const others = refused.length - named.length;
  const who = others > 0 ? `${named.join(', ')} and ${others} more` : named.join(', ');
  throw new TRPCError({ code: 'PRECONDITION_FAILED', message: `${who}: ${NOTHING_ON_OFFER}` });
}

export async function applyBulkAction(db: Db, target: Target, action: Action) {
  return db.transaction().execute(async (trx) => {
    const ids = await targetIds(trx, target);
    const done = { changed: 0, deleted: 0, deactivated: 0 };
    if (ids.length === 0) return done;
    const update = trx.updateTable('products').where('id', 'in', ids);
    const now = new Date();
    switch (action.kind) {
      case 'set_active':
        if (action.isActive) await refuseNothingOnOffer(trx, ids);
        await update.set({ is_active: action.isActive, updated_at: now }).execute();
        break;
      case 'move_to_category':
        try {
          await update.set({ category_id: action.categoryId, updated_at: now }).execute();
        } catch (error) {
          if (isForeignKeyViolation(error)) throw fieldError('BAD_REQUEST', 'categoryId', CATEGORY_REQUIRED);
          throw error;
        }
        break;
      case 'change_price': {
        const { highest } = await trx
          .selectFrom('products')
          .select(sql<string>`max(${newPrice(action)})::text`.as('highest'))
          .where('id', 'in', ids)
          .executeTakeFirstOrThrow();
        if (Number(highest) > MAX_PRICE) throw fieldError('BAD_REQUEST', 'amount', 'Price is too large');
        await update.set({ price: newPrice(action), updated_at: now }).execute();
        break;
      }
      case 'add_tag': {
        const full = await trx
          .selectFrom('products')
          .select(sql<number>`count(*)::int`.as('count'))
          .where('id', 'in', ids)
          .where(sql<boolean>`cardinality(tags) >= ${MAX_TAGS} and not (${action.tag} = any(tags))`)
          .executeTakeFirstOrThrow();
        if (full.count > 0) {
          throw fieldError(
            'BAD_REQUEST',
            'tag',
            `${full.count === 1 ? '1 product has' : `${full.count} products have`} ${MAX_TAGS} tags already`,
          );
        }
        await update
          .set({
            tags: sql`case when ${action.tag} = any(tags) then tags else array_append(tags, ${action.tag}::text) end`,
            updated_at: now,
          })
          .execute();
        break;
      }
      case 'remove_tag':
        await update.set({ tags: sql`array_remove(tags, ${action.tag}::text)`, updated_at: now }).execute();
        break;
      case 'delete': {
        // Orders keep their product link for the print shop and the books: those stay, inactive.
        const kept = await withOrders(trx, ids);
        if (kept.length > 0) {
          await trx.updateTable('products').set({ is_active: false, updated_at: now }).where('id', 'in', kept).execute();
        }
        const keptIds = new Set(kept);
        const gone = ids.filter((id) => !keptIds.has(id));
        if (gone.length > 0) await trx.deleteFrom('products').where('id', 'in', gone).execute();
        return { changed: 0, deleted: gone.length, deactivated: kept.length };
      }
    }
    return { ...done, changed: ids.length };
  });
}
