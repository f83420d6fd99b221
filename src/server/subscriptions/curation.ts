import { sql } from 'kysely';
import type { Size } from '../../shared/constants';
import type { Db } from '../db/database';

// Which shirt a member gets in a cycle (the written rule): an active product in the member's
// categories (all when none are chosen) and made in their size, that they have not been sent
// before, newest first; when every one has been sent, the one sent longest ago. "Sent" counts
// every order of the member that was not cancelled, shop purchases included: nobody wants a
// shirt they already bought. When the catalog has changed since they chose (their categories
// hidden, or emptied of shirts in their size), the same rule over every category: a paid cycle
// ships a shirt in their size rather than nothing.

export interface CycleShirt {
  id: string;
  name: string;
  image_url: string | null;
}

/** Whether any shirt could be picked for these choices: a member is not signed up for cycles that could ship nothing. */
export async function anyShirtFor(db: Db, size: Size, categoryIds: readonly string[]): Promise<boolean> {
  const shirt = await eligibleShirts(db, size, categoryIds).select('products.id').limit(1).executeTakeFirst();
  return shirt !== undefined;
}

const eligibleShirts = (db: Db, size: Size, categoryIds: readonly string[]) =>
  db
    .selectFrom('products')
    .innerJoin('categories', 'categories.id', 'products.category_id')
    .where('products.is_active', '=', true)
    .where('categories.is_active', '=', true)
    .where(sql<boolean>`${size} = any(products.available_sizes)`)
    .$if(categoryIds.length > 0, (query) => query.where('products.category_id', 'in', categoryIds));

export async function pickCycleShirt(
  db: Db,
  member: { customer_id: string | null; size: Size; category_ids: readonly string[] },
): Promise<CycleShirt | undefined> {
  const lastSent = sql`(
    select max(o.created_at) from order_items oi join orders o on o.id = oi.order_id
    where oi.product_id = products.id and o.customer_id = ${member.customer_id} and o.status <> 'cancelled'
  )`;
  const pick = (categoryIds: readonly string[]) =>
    eligibleShirts(db, member.size, categoryIds)
      .select(['products.id', 'products.name', 'products.image_url'])
      .orderBy(sql`${lastSent} asc nulls first`)
      .orderBy('products.created_at', 'desc')
      .orderBy('products.id')
      .limit(1)
      .executeTakeFirst();
  return (await pick(member.category_ids)) ?? (member.category_ids.length > 0 ? pick([]) : undefined);
}
