import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import type { ColourChoice, Size } from '../../shared/constants';
import { LIGHT_COLOUR_LUMINANCE } from '../../shared/colours';
import type { Db } from '../db/database';
import type { DB } from '../db/schema';

// Which shirt a member gets in a cycle (the written rule): an active product in the member's
// categories (all when none are chosen) and made in their size in a colour they accept, that they
// have not been sent before, newest first; when every one has been sent, the one sent longest ago.
// Of that product, the first of its colours (the admin's order) they accept, switched on in their
// size. "Sent" counts every order of the member that was not cancelled, shop purchases included:
// nobody wants a shirt they already bought. When the catalog has changed since they chose (their
// categories hidden, or emptied of shirts in their size), the same rule over every category: a
// paid cycle ships a shirt in their size rather than nothing. Their colours are never overruled:
// with none in them, the cycle's order has no shirt and the store is told (renewal.ts).

export interface CycleShirt {
  id: string;
  name: string;
  image_url: string | null;
  variant_id: string;
  variant_sku: string;
  colour_name: string;
  colour_hex: string;
}

export interface ShirtChoices {
  size: Size;
  category_ids: readonly string[];
  colour_choice: ColourChoice;
}

/**
 * Whether the shirt colour `hex` ('#rrggbb') is light: its relative luminance (WCAG, as
 * `luminance` in src/shared/colours.ts works it out) is at least LIGHT_COLOUR_LUMINANCE.
 */
export function isLightHex(hex: RawBuilder<string>): RawBuilder<boolean> {
  const channel = (start: number) => {
    const value = sql`(('x' || substr(${hex}, ${sql.lit(start)}, 2))::bit(8)::int / 255.0)`;
    return sql`(case when ${value} <= 0.03928 then ${value} / 12.92 else power((${value} + 0.055) / 1.055, 2.4) end)`;
  };
  return sql<boolean>`(0.2126 * ${channel(2)} + 0.7152 * ${channel(4)} + 0.0722 * ${channel(6)} >= ${sql.lit(LIGHT_COLOUR_LUMINANCE)})`;
}

/** The first colour of the product (`products` of the outer query) the member accepts, on in their size. */
function acceptedVariant(eb: ExpressionBuilder<DB, 'products'>, size: Size, choice: ColourChoice) {
  return eb
    .selectFrom('product_variants as v')
    .innerJoin('product_colours as c', 'c.id', 'v.colour_id')
    .select([
      'v.id as variant_id',
      'v.sku as variant_sku',
      'c.name as colour_name',
      'c.hex as colour_hex',
      'c.front_mockup_url',
      'c.back_mockup_url',
    ])
    .whereRef('v.product_id', '=', 'products.id')
    .where('v.size', '=', size)
    .where('v.is_enabled', '=', true)
    .$if(choice !== 'any', (query) => query.where(isLightHex(sql.ref('c.hex')), '=', choice === 'light'))
    .orderBy('c.sort_order')
    .limit(1);
}

const eligibleShirts = (db: Db, { size, category_ids: categoryIds, colour_choice: choice }: ShirtChoices) =>
  db
    .selectFrom('products')
    .innerJoin('categories', 'categories.id', 'products.category_id')
    .innerJoinLateral(
      (eb) => acceptedVariant(eb, size, choice).as('accepted'),
      (join) => join.onTrue(),
    )
    .where('products.is_active', '=', true)
    .where('categories.is_active', '=', true)
    .where(sql<boolean>`${size} = any(products.available_sizes)`)
    .$if(categoryIds.length > 0, (query) => query.where('products.category_id', 'in', categoryIds));

/** Whether any shirt could be picked for these choices: a member is not signed up for cycles that could ship nothing. */
export async function anyShirtFor(db: Db, choices: ShirtChoices): Promise<boolean> {
  const shirt = await eligibleShirts(db, choices).select('products.id').limit(1).executeTakeFirst();
  return shirt !== undefined;
}

export async function pickCycleShirt(db: Db, member: ShirtChoices & { customer_id: string | null }): Promise<CycleShirt | undefined> {
  const lastSent = sql`(
    select max(o.created_at) from order_items oi join orders o on o.id = oi.order_id
    where oi.product_id = products.id and o.customer_id = ${member.customer_id} and o.status <> 'cancelled'
  )`;
  const pick = (categoryIds: readonly string[]) =>
    eligibleShirts(db, { ...member, category_ids: categoryIds })
      .select([
        'products.id',
        'products.name',
        // The colour's picture of the side the product shows first, as a cart line's (orders/pricing.ts).
        sql<
          string | null
        >`coalesce(case when products.default_mockup_side = 'back' then accepted.back_mockup_url else accepted.front_mockup_url end, products.image_url)`.as(
          'image_url',
        ),
        'accepted.variant_id',
        'accepted.variant_sku',
        'accepted.colour_name',
        'accepted.colour_hex',
      ])
      .orderBy(sql`${lastSent} asc nulls first`)
      .orderBy('products.created_at', 'desc')
      .orderBy('products.id')
      .limit(1)
      .executeTakeFirst();
  return (await pick(member.category_ids)) ?? (member.category_ids.length > 0 ? pick([]) : undefined);
}
