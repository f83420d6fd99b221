import { sql } from 'kysely';
import { colourCodeOf, colourSlug } from '../../shared/colours';
import type { Size } from '../../shared/constants';
import type { Db } from '../db/database';

// A product's colours as the admin's form saves them (docs/adr/0029): kept colours keep their id
// and SKU code (so their variants, SKUs and the order lines naming them stay), new ones get a code
// no other colour of the product has, removed ones go with their variants. The database gives each
// colour a variant per offered size and keeps every SKU (migration 0020); this sets the switches.

export interface ColourToSave {
  id?: string | undefined;
  name: string;
  hex: string;
  off_sizes: Size[];
  front_blank_url: string | null;
  back_blank_url: string | null;
}

/** `base` or, taken, `base` with a number (slugs get "-2", codes "2"). */
function freeName(base: string, taken: Set<string>, join: (base: string, n: number) => string): string {
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = join(base, n);
  taken.add(name);
  return name;
}

/** Puts `colours` in place of the product's, in their order; run inside the product's write transaction. */
export async function saveColours(trx: Db, productId: string, colours: readonly ColourToSave[]): Promise<void> {
  const existing = await trx.selectFrom('product_colours').select(['id', 'code']).where('product_id', '=', productId).execute();
  const keptIds = new Set(colours.flatMap((colour) => (colour.id && existing.some((row) => row.id === colour.id) ? [colour.id] : [])));
  const gone = existing.filter((row) => !keptIds.has(row.id)).map((row) => row.id);
  if (gone.length > 0) await trx.deleteFrom('product_colours').where('id', 'in', gone).execute();
  // Kept colours step aside first, so two of them can swap names within this save.
  if (keptIds.size > 0) {
    await trx
      .updateTable('product_colours')
      .set({ name: sql<string>`id::text`, slug: sql<string>`id::text` })
      .where('id', 'in', [...keptIds])
      .execute();
  }
  const codes = new Set(existing.filter((row) => keptIds.has(row.id)).map((row) => row.code));
  const slugs = new Set<string>();
  for (const [index, colour] of colours.entries()) {
    const values = {
      name: colour.name,
      slug: freeName(colourSlug(colour.name), slugs, (base, n) => `${base}-${n}`),
      hex: colour.hex,
      sort_order: index,
      front_blank_url: colour.front_blank_url,
      back_blank_url: colour.back_blank_url,
      updated_at: new Date(),
    };
    const id =
      colour.id && keptIds.has(colour.id)
        ? (await trx.updateTable('product_colours').set(values).where('id', '=', colour.id).returning('id').executeTakeFirstOrThrow()).id
        : (
            await trx
              .insertInto('product_colours')
              .values({
                ...values,
                product_id: productId,
                code: freeName(colourCodeOf(colour.name), codes, (base, n) => `${base.slice(0, 5)}${n}`),
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
    await trx
      .updateTable('product_variants')
      .set({ is_enabled: sql<boolean>`not (size = any(${sql.val(colour.off_sizes)}::text[]))`, updated_at: new Date() })
      .where('colour_id', '=', id)
      .execute();
  }
}

/** Whether the product has a colour in a size it offers, switched on: what an active product needs. */
export async function hasVariantOnOffer(db: Db, productId: string): Promise<boolean> {
  const row = await db
    .selectFrom('product_variants')
    .innerJoin('products', 'products.id', 'product_variants.product_id')
    .select('product_variants.id')
    .where('product_variants.product_id', '=', productId)
    .where('product_variants.is_enabled', '=', true)
    .where(sql<boolean>`product_variants.size = any(products.available_sizes)`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The product's colours as the admin's form edits them: with their code, switches and each size's SKU. */
export async function coloursForForm(db: Db, productId: string) {
  const [colours, variants] = await Promise.all([
    db
      .selectFrom('product_colours')
      .select(['id', 'name', 'hex', 'code', 'front_blank_url', 'back_blank_url', 'front_mockup_url', 'back_mockup_url'])
      .where('product_id', '=', productId)
      .orderBy('sort_order')
      .execute(),
    db.selectFrom('product_variants').select(['colour_id', 'size', 'sku', 'is_enabled']).where('product_id', '=', productId).execute(),
  ]);
  return colours.map((colour) => {
    const own = variants.filter((variant) => variant.colour_id === colour.id);
    return {
      ...colour,
      off_sizes: own.filter((variant) => !variant.is_enabled).map((variant) => variant.size),
      skus: Object.fromEntries(own.map((variant) => [variant.size, variant.sku])),
    };
  });
}
