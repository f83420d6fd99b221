import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CSV_COLUMNS } from '../../src/server/catalog/product-csv';
import { callerAs, sharedTestApp, type Caller } from '../support/app';
import { createAdmin, createCategory, createCustomer, createProduct } from '../support/factories';

// admin.products.exportCsv: Shopify's product columns then ours, one row per size with the
// product's fields on its first row, every product or those the list's filters show; text a
// spreadsheet would run as a formula is made plain.

const t = sharedTestApp();
let admin: Caller;
let hoodies: string;

beforeAll(async () => {
  admin = callerAs(t, await createAdmin(t.db));
  const shirts = await createCategory(t.db, { name: 'Shirts', slug: 'shirts' });
  hoodies = (await createCategory(t.db, { name: 'Hoodies', slug: 'hoodies' })).id;
  await createProduct(t.db, {
    slug: 'moto-tee',
    name: 'Moto Tee',
    description: 'Fast & loud <b>\nTwo lines',
    sku_number: 'MOTO-1',
    price: '24.99',
    available_sizes: ['S', 'M'],
    tags: ['moto', 'bikes'],
    category_id: shirts.id,
    image_url: '/storage/product-images/moto.png',
    front_art_url: '/storage/product-art/moto.png',
    back_art_url: null,
    chest_position: 'left_chest',
    is_featured: true,
  });
  await createProduct(t.db, {
    slug: 'wave-hoodie',
    name: '=SUM(A1)',
    description: 'Warm',
    sku_number: 'WAVE-1',
    price: '40.00',
    available_sizes: ['XL'],
    tags: [],
    category_id: hoodies,
    is_active: false,
  });
});

const rowsOf = (csv: string): Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>[] => parse(csv, { columns: true });

describe('admin.products.exportCsv', () => {
  it('writes one row per size in Shopify’s columns, then ours', async () => {
    const { csv } = await admin.admin.products.exportCsv({});
    expect(csv.split('\n')[0]).toBe(PRODUCT_CSV_COLUMNS.join(','));
    const rows = rowsOf(csv);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({
      Handle: 'moto-tee',
      Title: 'Moto Tee',
      'Body (HTML)': 'Fast &amp; loud &lt;b&gt;\nTwo lines',
      Vendor: 'Threadline',
      Type: 'Shirts',
      Tags: 'moto, bikes',
      Published: 'TRUE',
      'Option1 Name': 'Size',
      'Option1 Value': 'S',
      'Option2 Name': '',
      'Option2 Value': '',
      'Variant SKU': 'MOTO-1-S',
      'Variant Price': '24.99',
      'Image Src': '/storage/product-images/moto.png',
      Status: 'active',
      Category: 'shirts',
      Featured: 'TRUE',
      'Front Art': '/storage/product-art/moto.png',
      'Back Art': '',
      'Chest Position': 'left_chest',
    });
    // The next size of the same product: its variant only.
    expect(rows[1]).toMatchObject({
      Handle: 'moto-tee',
      Title: '',
      'Option1 Value': 'M',
      'Variant SKU': 'MOTO-1-M',
      'Variant Price': '24.99',
      Category: '',
    });
    expect(rows[2]).toMatchObject({ Handle: 'wave-hoodie', Title: "'=SUM(A1)", Published: 'FALSE', Status: 'draft', Category: 'hoodies' });
  });

  it('exports only the products the filters show', async () => {
    expect(rowsOf((await admin.admin.products.exportCsv({ categoryId: hoodies })).csv).map((row) => row.Handle)).toEqual(['wave-hoodie']);
    expect(rowsOf((await admin.admin.products.exportCsv({ search: 'loud' })).csv).map((row) => row.Handle)).toEqual([
      'moto-tee',
      'moto-tee',
    ]);
  });

  it('is refused to customers', async () => {
    const customer = callerAs(t, await createCustomer(t.db, { email: 'nosy@example.com' }));
    await expect(customer.admin.products.exportCsv({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
