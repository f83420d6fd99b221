import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/database';
import { callerFor, testConfig } from '../support/app';
import { createTestDatabase } from '../support/db';
import { createCategory, createProduct } from '../support/factories';

// The shop's and a category's colour filter, and the number of colours on each card: only colours
// a shopper can buy count (a colour switched off in every size the product offers does not).

let database: DatabaseHandle;
let catalog: ReturnType<typeof callerFor>['caller']['catalog'];

/** The product's colours in place of its first White: [name, hex] each, with a variant per size. */
async function colourProduct(name: string, categoryId: string, colours: [string, string][]) {
  const product = await createProduct(database.db, {
    name,
    slug: name.toLowerCase().replace(/\W+/g, '-'),
    category_id: categoryId,
    available_sizes: ['M', 'L'],
  });
  await database.db.deleteFrom('product_colours').where('product_id', '=', product.id).execute();
  await database.db
    .insertInto('product_colours')
    .values(
      colours.map(([colourName, hex], index) => ({
        product_id: product.id,
        name: colourName,
        slug: colourName.toLowerCase().replace(/\W+/g, '-'),
        hex,
        code: colourName.slice(0, 3).toUpperCase(),
        sort_order: index,
      })),
    )
    .execute();
  return product;
}

const names = (page: { items: { name: string }[] }) => page.items.map((item) => item.name).sort();

beforeAll(async () => {
  database = await createTestDatabase();
  catalog = callerFor(database, testConfig(), null).caller.catalog;
  const moto = await createCategory(database.db, { slug: 'motorcycle', name: 'Motorcycle' });
  const car = await createCategory(database.db, { slug: 'car', name: 'Car' });
  const hidden = await createCategory(database.db, { slug: 'hidden', name: 'Hidden', is_active: false });
  await colourProduct('Chrome Tee', moto.id, [
    ['Black', '#1b1b1d'],
    ['Navy', '#1f2a44'],
    ['White', '#ffffff'],
  ]);
  await colourProduct('Piston Tee', car.id, [
    ['Black', '#111111'],
    ['Sand', '#d8c8a8'],
  ]);
  const offRed = await colourProduct('Redline Tee', car.id, [
    ['White', '#ffffff'],
    ['Red', '#b3202a'],
  ]);
  // Red comes in no size the product offers: not for sale, not counted, not found by the filter.
  const red = await database.db
    .selectFrom('product_colours')
    .select('id')
    .where('product_id', '=', offRed.id)
    .where('slug', '=', 'red')
    .executeTakeFirstOrThrow();
  await database.db.updateTable('product_variants').set({ is_enabled: false }).where('colour_id', '=', red.id).execute();
  await colourProduct('Hidden Tee', hidden.id, [['Pink', '#f2b8c6']]);
  await createProduct(database.db, { name: 'Retired Tee', slug: 'retired-tee', category_id: moto.id, is_active: false });
});
afterAll(() => database.close());

describe('colour filter', () => {
  it('lists the products that come in the colour, in every category or one', async () => {
    expect(names(await catalog.products({ colour: 'black' }))).toEqual(['Chrome Tee', 'Piston Tee']);
    expect(names(await catalog.products({ colour: 'white' }))).toEqual(['Chrome Tee', 'Redline Tee']);
    expect(names(await catalog.products({ colour: 'black', category: 'car' }))).toEqual(['Piston Tee']);
    expect(names(await catalog.products({ colour: 'navy', category: 'car' }))).toEqual([]);
  });

  it('finds nothing for a colour switched off in every size, of a hidden product, or unknown', async () => {
    expect(names(await catalog.products({ colour: 'red' }))).toEqual([]);
    expect(names(await catalog.products({ colour: 'pink' }))).toEqual([]);
    expect(names(await catalog.products({ colour: 'no-such-colour' }))).toEqual([]);
  });

  it('offers the colours listed products are for sale in, the most common first, within a category if asked', async () => {
    expect(await catalog.colours({})).toEqual([
      { slug: 'black', name: 'Black', hex: '#111111' },
      { slug: 'white', name: 'White', hex: '#ffffff' },
      { slug: 'navy', name: 'Navy', hex: '#1f2a44' },
      { slug: 'sand', name: 'Sand', hex: '#d8c8a8' },
    ]);
    expect((await catalog.colours({ category: 'car' })).map((c) => c.name)).toEqual(['Black', 'Sand', 'White']);
    expect(await catalog.colours({ category: 'hidden' })).toEqual([]);
  });

  it('counts on each card the colours a shopper can buy', async () => {
    const { items } = await catalog.products({});
    expect(Object.fromEntries(items.map((item) => [item.name, item.colour_count]))).toEqual({
      'Chrome Tee': 3,
      'Piston Tee': 2,
      'Redline Tee': 1,
    });
  });
});
