import { randomUUID } from 'node:crypto';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows } from '../../src/server/db/count';
import type { DatabaseHandle } from '../../src/server/db/database';
import { migrateToLatest, migrationProvider } from '../../src/server/db/migrate';
import { COLOUR_HEX_INVALID, COLOURS_REQUIRED, duplicateColourMessage, NOTHING_ON_OFFER } from '../../src/shared/schemas/admin-products';
import { callerFor, callTrpc, sharedCallers, sharedTestApp } from '../support/app';
import { trpcFailure } from '../support/async';
import { createTestDatabase, emptyTables } from '../support/db';
import { createCategory, createCustomer, createOrder, createProduct } from '../support/factories';

// Shirts in colours (docs/adr/0029): existing products get one colour on migration, the admin's
// colours and variant switches, SKUs, per-size surcharges, cart and order lines by variant, carts
// saved before colours, and every refusal, with nothing written.

describe('migration 0020', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('gives every existing product one colour matching its mockups, a variant per size, and old order lines that colour', async () => {
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateTo('0018_erasure_and_retention')).error).toBeUndefined();
    const db = database.db;
    const category = await createCategory(db);
    // Inserted as the code before colours did: no colour columns or tables exist yet.
    const [product] = await db
      .insertInto('products')
      .values({
        sku_number: 'TL-OLD-1',
        slug: 'old-tee',
        name: 'Old Tee',
        description: 'From before colours',
        price: '22.00',
        front_art_url: '/storage/product-art/a.png',
        front_mockup_url: '/storage/mockups/old-front.png',
        back_mockup_url: '/storage/mockups/old-back.png',
        available_sizes: ['M', 'L', '2XL'],
        category_id: category.id,
      })
      .returning('id')
      .execute();
    const customer = await createCustomer(db);
    const order = await createOrder(db, { customer_id: customer.id });
    await db
      .insertInto('order_items')
      .values({
        order_id: order.id,
        product_id: product!.id,
        product_name: 'Old Tee',
        size: 'L',
        quantity: 1,
        unit_price: '22.00',
        total_price: '22.00',
      } as never)
      .execute();

    expect(await migrateToLatest(db)).toContain('0020_colours_and_variants');

    const colours = await db.selectFrom('product_colours').selectAll().where('product_id', '=', product!.id).execute();
    expect(colours).toEqual([
      expect.objectContaining({
        name: 'White',
        slug: 'white',
        hex: '#ffffff',
        code: 'WHT',
        front_mockup_url: '/storage/mockups/old-front.png',
        back_mockup_url: '/storage/mockups/old-back.png',
      }),
    ]);
    const variants = await db
      .selectFrom('product_variants')
      .select(['size', 'sku', 'is_enabled'])
      .where('product_id', '=', product!.id)
      .orderBy('sku')
      .execute();
    expect(variants).toEqual([
      { size: '2XL', sku: 'TL-OLD-1-WHT-2XL', is_enabled: true },
      { size: 'L', sku: 'TL-OLD-1-WHT-L', is_enabled: true },
      { size: 'M', sku: 'TL-OLD-1-WHT-M', is_enabled: true },
    ]);
    const line = await db
      .selectFrom('order_items')
      .select(['colour_name', 'colour_hex', 'variant_sku'])
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(line).toEqual({ colour_name: 'White', colour_hex: '#ffffff', variant_sku: 'TL-OLD-1-WHT-L' });
    const settings = await db.selectFrom('store_settings').select('size_surcharges').executeTakeFirstOrThrow();
    expect(settings.size_surcharges).toEqual({});
  });
});

const t = sharedTestApp();
const as = sharedCallers(t);
let category: string;

const shipping = {
  first_name: 'Jake',
  last_name: 'Rider',
  phone: '',
  street: '218 W Main St',
  city: 'Bozeman',
  state: 'MT',
  zip: '59715',
  country: 'USA',
};

beforeAll(async () => {
  category = (await createCategory(t.db)).id;
});
beforeEach(async () => {
  await emptyTables(t.db, 'order_items', 'orders', 'products');
  await t.db.updateTable('store_settings').set({ size_surcharges: '{}' }).execute();
  await t.db.deleteFrom('email_queue').execute();
});

const admin = () => callerFor(t.database, t.config, as.users.admin).caller.admin;
const buyer = () => callerFor(t.database, t.config, as.users.customer).caller;

const productInput = (overrides: Record<string, unknown> = {}) => ({
  name: 'Chrome Tee',
  slug: 'chrome-tee',
  sku_number: 'TL-CHR-001',
  description: 'Chrome and thunder.',
  price: 24,
  category_id: category,
  front_art_url: '/storage/product-art/front.png',
  available_sizes: ['M', 'L', '2XL', '4XL'],
  colours: [
    { name: 'Black', hex: '#1B1B1D', off_sizes: ['4XL'] },
    { name: 'Heather Grey', hex: 'a6a7ab' },
  ],
  ...overrides,
});

async function createChrome(overrides: Record<string, unknown> = {}) {
  const { id } = await admin().products.create(productInput(overrides) as never);
  const colours = await t.db.selectFrom('product_colours').selectAll().where('product_id', '=', id).orderBy('sort_order').execute();
  return { id, black: colours[0]!, grey: colours[1]! };
}

describe('colours and variants from the product form', () => {
  it('puts the form’s colours in place of the first White, with a variant per size, its SKU and its switch', async () => {
    const { id } = await createChrome();
    const product = await admin().products.byId({ id });
    expect(product.colours.map((c) => [c.name, c.hex, c.code, c.off_sizes])).toEqual([
      ['Black', '#1b1b1d', 'BLK', ['4XL']],
      ['Heather Grey', '#a6a7ab', 'HGR', []],
    ]);
    expect(product.colours[0]?.skus).toEqual({
      M: 'TL-CHR-001-BLK-M',
      L: 'TL-CHR-001-BLK-L',
      '2XL': 'TL-CHR-001-BLK-2XL',
      '4XL': 'TL-CHR-001-BLK-4XL',
    });
  });

  it('keeps a colour’s id and SKUs when it is renamed and reordered, and drops a removed one with its variants', async () => {
    const { id, black, grey } = await createChrome();
    const { updated_at: updatedAt } = await admin().products.byId({ id });
    await admin().products.update({
      ...productInput({ sku_number: 'TL-CHR-002' }),
      id,
      updatedAt,
      colours: [
        { id: grey.id, name: 'Grey', hex: '#a6a7ab', off_sizes: ['M'] },
        { name: 'Navy', hex: '#1f2a44' },
      ],
    } as never);
    const product = await admin().products.byId({ id });
    expect(product.colours.map((c) => [c.id === grey.id, c.name, c.code, c.off_sizes, c.skus['2XL']])).toEqual([
      [true, 'Grey', 'HGR', ['M'], 'TL-CHR-002-HGR-2XL'],
      [false, 'Navy', 'NVY', [], 'TL-CHR-002-NVY-2XL'],
    ]);
    expect(await countRows(t.db.selectFrom('product_variants').where('colour_id', '=', black.id))).toBe(0);
  });

  it.each([
    ['a colour with no name', { colours: [{ name: ' ', hex: '#000000' }] }, 'Colour name is required'],
    ['a hex value that is not one', { colours: [{ name: 'Black', hex: '#12345' }] }, COLOUR_HEX_INVALID],
    [
      'two colours of one name',
      {
        colours: [
          { name: 'Black', hex: '#000000' },
          { name: 'black', hex: '#111111' },
        ],
      },
      duplicateColourMessage('black'),
    ],
    ['no colour', { colours: [] }, COLOURS_REQUIRED],
    [
      'an active product with every variant off',
      { colours: [{ name: 'Black', hex: '#000000', off_sizes: ['M', 'L', '2XL', '4XL'] }] },
      NOTHING_ON_OFFER,
    ],
  ])('refuses %s with its message under the field, and writes nothing', async (_case, overrides, message) => {
    const res = await callTrpc(t.app, 'admin.products.create', { cookie: as.cookies.admin, input: productInput(overrides) });
    expect(res.error?.message).toBe(message);
    expect(await countRows(t.db.selectFrom('products'))).toBe(0);
  });

  it('names the duplicate colour’s own field', async () => {
    const res = await callTrpc(t.app, 'admin.products.create', {
      cookie: as.cookies.admin,
      input: productInput({
        colours: [
          { name: 'Black', hex: '#000000' },
          { name: 'Black', hex: '#111111' },
        ],
      }),
    });
    expect(res.error?.data.fieldErrors).toEqual({ 'colours.1.name': [duplicateColourMessage('Black')] });
  });

  it('refuses to switch on a product none of whose variants is on offer', async () => {
    const { id } = await createChrome({
      is_active: false,
      colours: [{ name: 'Black', hex: '#000000', off_sizes: ['M', 'L', '2XL', '4XL'] }],
    });
    expect(await trpcFailure(admin().products.setActive({ id, isActive: true }))).toEqual({
      code: 'PRECONDITION_FAILED',
      message: NOTHING_ON_OFFER,
    });
    expect((await admin().products.byId({ id })).is_active).toBe(false);
  });

  it('is refused to customers and visitors', async () => {
    const customer = await callTrpc(t.app, 'admin.settings.saveSizePricing', {
      cookie: as.cookies.customer,
      input: { surcharges: { '2XL': 9 } },
    });
    expect(customer.error?.data.code).toBe('FORBIDDEN');
    const anonymous = await callTrpc(t.app, 'admin.settings.saveSizePricing', { input: { surcharges: { '2XL': 9 } } });
    expect(anonymous.error?.data.code).toBe('UNAUTHORIZED');
    expect(await admin().settings.sizePricing()).toEqual({});
  });
});

describe('prices by size', () => {
  it('adds the size’s surcharge to the product’s price on the page, in the cart and on the order', async () => {
    const { id, grey } = await createChrome();
    expect(await admin().settings.saveSizePricing({ surcharges: { '2XL': 3, '4XL': 4.5, M: 0 } })).toEqual({
      '2XL': '3.00',
      '4XL': '4.50',
    });
    const page = await buyer().catalog.productBySlug({ slug: 'chrome-tee' });
    expect(page?.prices).toEqual({ M: '24.00', L: '24.00', '2XL': '27.00', '4XL': '28.50' });
    expect(page?.colours.map((c) => [c.name, c.sizes])).toEqual([
      ['Black', ['M', 'L', '2XL']],
      ['Heather Grey', ['M', 'L', '2XL', '4XL']],
    ]);
    const lines = [
      { productId: id, colourId: grey.id, size: '2XL' as const, quantity: 2 },
      { productId: id, colourId: grey.id, size: 'M' as const, quantity: 1 },
    ];
    const quote = await buyer().checkout.quote({ lines });
    expect(quote.subtotal).toBe('78.00');
    await buyer().checkout.placeOrder({ idempotencyKey: randomUUID(), lines, shipping });
    const items = await t.db
      .selectFrom('order_items')
      .select(['colour_name', 'colour_hex', 'variant_sku', 'size', 'unit_price', 'total_price'])
      .orderBy('size')
      .execute();
    expect(items).toEqual([
      {
        colour_name: 'Heather Grey',
        colour_hex: '#a6a7ab',
        variant_sku: 'TL-CHR-001-HGR-2XL',
        size: '2XL',
        unit_price: '27.00',
        total_price: '54.00',
      },
      {
        colour_name: 'Heather Grey',
        colour_hex: '#a6a7ab',
        variant_sku: 'TL-CHR-001-HGR-M',
        size: 'M',
        unit_price: '24.00',
        total_price: '24.00',
      },
    ]);
  });
});

describe('cart and order lines by variant', () => {
  it('keeps one design in two colours as two order lines, each recording its colour, and emails them', async () => {
    const { id, black, grey } = await createChrome();
    const { orderNumber } = await buyer().checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [
        { productId: id, colourId: black.id, size: 'L', quantity: 1 },
        { productId: id, colourId: grey.id, size: 'L', quantity: 1 },
        { productId: id, colourId: black.id, size: 'L', quantity: 2 },
      ],
      shipping,
    });
    const order = await buyer().orders.get({ orderNumber });
    expect(order.items.map((item) => [item.colour_name, item.size, item.quantity])).toEqual(
      expect.arrayContaining([
        ['Black', 'L', 3],
        ['Heather Grey', 'L', 1],
      ]),
    );
    expect(order.items).toHaveLength(2);
    const email = await t.db.selectFrom('email_queue').select('text_body').executeTakeFirstOrThrow();
    expect(email.text_body).toContain('Chrome Tee (Black, L) × 3');
    expect(email.text_body).toContain('Chrome Tee (Heather Grey, L) × 1');
  });

  it('gives a line of a cart saved before colours (no colour named) the product’s first colour', async () => {
    const { id } = await createChrome();
    const quote = await buyer().checkout.quote({ lines: [{ productId: id, size: 'M', quantity: 1 }] });
    expect(quote.lines).toEqual([expect.objectContaining({ colourName: 'Black', size: 'M', problem: null })]);
    await buyer().checkout.placeOrder({ idempotencyKey: randomUUID(), lines: [{ productId: id, size: 'M', quantity: 1 }], shipping });
    expect(await t.db.selectFrom('order_items').select(['colour_name', 'variant_sku']).execute()).toEqual([
      { colour_name: 'Black', variant_sku: 'TL-CHR-001-BLK-M' },
    ]);
  });

  it('gives products made outside the form (a script, an older test) their White colour', async () => {
    const product = await createProduct(t.db, { category_id: category, available_sizes: ['S', 'M'] });
    const cart = await buyer().catalog.cartProducts({ ids: [product.id] });
    expect(cart[0]?.colours.map((c) => [c.name, c.sizes])).toEqual([['White', ['S', 'M']]]);
  });

  it('refuses a variant switched off, and a colour that is gone, with a clear message, placing nothing', async () => {
    const { id, black } = await createChrome();
    const off = await trpcFailure(
      buyer().checkout.placeOrder({
        idempotencyKey: randomUUID(),
        lines: [{ productId: id, colourId: black.id, size: '4XL', quantity: 1 }],
        shipping,
      }),
    );
    expect(off).toEqual({
      code: 'BAD_REQUEST',
      message: '"Chrome Tee" is not available in size 4XL in Black. Please remove it from your cart.',
    });
    const gone = await trpcFailure(
      buyer().checkout.placeOrder({
        idempotencyKey: randomUUID(),
        lines: [{ productId: id, colourId: randomUUID(), size: 'M', quantity: 1 }],
        shipping,
      }),
    );
    expect(gone).toEqual({
      code: 'BAD_REQUEST',
      message: '"Chrome Tee" is no longer available in that colour. Please remove it from your cart.',
    });
    expect(await countRows(t.db.selectFrom('orders'))).toBe(0);
    const quote = await buyer().checkout.quote({ lines: [{ productId: id, colourId: black.id, size: '4XL', quantity: 1 }] });
    expect(quote.lines[0]?.problem).toBe('variant_off');
  });
});
