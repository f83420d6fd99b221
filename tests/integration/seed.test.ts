import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_STATUSES, EMAIL_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES, PRINT_STATUSES } from '../../src/shared/constants';
import type { DatabaseHandle, Db } from '../../src/server/db/database';
import { SEED_MARKER, seedIfEmpty } from '../../src/server/seed/seed';
import { LocalStorage } from '../../src/server/storage/local';
import { parseStorageUrl } from '../../src/server/storage/storage';
import { callerFor, testConfig } from '../support/app';
import { createTestDatabase } from '../support/db';
import { createAdmin } from '../support/factories';

let database: DatabaseHandle;
let db: Db;
let storage: LocalStorage;
let storageRoot: string;
let firstRun: boolean;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The stored bytes behind a /storage/... URL, checked to be a real PNG; returns its size. */
async function storedPng(url: string | null) {
  const parsed = url ? parseStorageUrl(url) : null;
  expect(parsed, `not a storage URL: ${url}`).not.toBeNull();
  const bytes = await storage.get(parsed!.bucket, parsed!.key);
  expect(bytes, `missing file for ${url}`).not.toBeNull();
  expect(Buffer.from(bytes!.subarray(0, 8)).equals(PNG_MAGIC)).toBe(true);
  const meta = await sharp(bytes!).metadata();
  expect(meta.format).toBe('png');
  return { bucket: parsed!.bucket, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha };
}

const distinct = async <T extends string>(query: Promise<{ value: T }[]>) => new Set((await query).map((row) => row.value));

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  storageRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-seed-'));
  storage = new LocalStorage(storageRoot);
  firstRun = await seedIfEmpty(db, storage);
}, 120_000);

afterAll(async () => {
  await database.close();
  fs.rmSync(storageRoot, { recursive: true, force: true });
});

describe('seedIfEmpty', () => {
  it('seeds an empty database once, never twice', async () => {
    expect(firstRun).toBe(true);
    const filesBefore = fs.readdirSync(path.join(storageRoot, 'mockups')).length;
    expect(await seedIfEmpty(db, storage)).toBe(false);
    expect(fs.readdirSync(path.join(storageRoot, 'mockups')).length).toBe(filesBefore);
    const marker = await db.selectFrom('app_meta').select('value').where('key', '=', SEED_MARKER).executeTakeFirst();
    expect(marker?.value).toBeTruthy();
    const products = await db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(products.n)).toBeGreaterThanOrEqual(18);
  });

  it('creates the three categories with banner images', async () => {
    const categories = await db.selectFrom('categories').selectAll().orderBy('sort_order').execute();
    expect(categories.map((c) => [c.slug, c.name, c.sort_order, c.is_active])).toEqual([
      ['motorcycle', 'Motorcycle', 1, true],
      ['car', 'Car', 2, true],
      ['christian', 'Christian', 3, true],
    ]);
    for (const category of categories) {
      expect(category.description.length).toBeGreaterThan(20);
      const banner = await storedPng(category.image_url);
      expect(banner).toMatchObject({ bucket: 'categories', width: 1600, height: 500 });
    }
  });

  it('creates at least 6 products per category, each with artwork and mockups on disk', async () => {
    const products = await db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .selectAll('products')
      .select('categories.slug as category')
      .execute();
    expect(products.length).toBeGreaterThanOrEqual(18);
    for (const slug of ['motorcycle', 'car', 'christian']) {
      expect(products.filter((p) => p.category === slug && p.is_active).length).toBeGreaterThanOrEqual(6);
    }
    expect(new Set(products.map((p) => p.sku_number)).size).toBe(products.length);
    for (const product of products) {
      const frontArt = await storedPng(product.front_art_url);
      const backArt = await storedPng(product.back_art_url);
      expect([frontArt.bucket, backArt.bucket]).toEqual(['product-art', 'product-art']);
      expect(frontArt.hasAlpha && backArt.hasAlpha).toBe(true);
      const frontMockup = await storedPng(product.front_mockup_url);
      const backMockup = await storedPng(product.back_mockup_url);
      expect([frontMockup.bucket, backMockup.bucket]).toEqual(['mockups', 'mockups']);
      const defaultMockup = product.default_mockup_side === 'front' ? product.front_mockup_url : product.back_mockup_url;
      expect(product.image_url).toBe(defaultMockup);
      expect(Number(product.price)).toBeGreaterThan(0);
      expect(product.tags.every((tag) => tag === tag.toLowerCase())).toBe(true);
    }
    expect(products.filter((p) => p.is_featured && p.is_active).length).toBeGreaterThanOrEqual(6);
    expect(products.filter((p) => !p.is_active).length).toBeGreaterThanOrEqual(1);
    expect(products.some((p) => p.default_mockup_side === 'back')).toBe(true);
    expect(products.some((p) => p.chest_position === 'left_chest')).toBe(true);
    expect(products.some((p) => p.available_sizes.includes('XS'))).toBe(true);
    // Spread over time, so "newest" sorting means something.
    expect(new Set(products.map((p) => p.created_at.slice(0, 10))).size).toBeGreaterThan(10);
  });

  it('creates three active plans, exactly one covering all categories', async () => {
    const plans = await db.selectFrom('subscription_plans').selectAll().execute();
    expect(plans).toHaveLength(3);
    expect(plans.every((p) => p.is_active && p.features.length > 0)).toBe(true);
    expect(plans.filter((p) => p.category_limit === 0)).toHaveLength(1);
  });

  it('creates club members with the cycles they went through, so the dashboard shows real figures', async () => {
    // An admin to read the dashboard as, gone again: the demo store itself has none.
    const admin = await createAdmin(db);
    const overview = callerFor(database, testConfig(), admin).caller.admin.dashboard.overview();
    const { club } = await overview.finally(() => db.deleteFrom('users').where('id', '=', admin.id).execute());
    expect(club).toMatchObject({ activeMembers: 3, churnPercent: '25.0' });
    expect(Number(club.mrr)).toBeGreaterThan(0);
    expect(club.shipmentsDue).toBeGreaterThan(0);
    const memberships = await db.selectFrom('subscriptions').select(['id', 'status', 'next_cycle_on', 'price']).execute();
    const today = new Date().toISOString().slice(0, 10);
    for (const membership of memberships) {
      // Nothing is due on the first start: every cycle gone by has its order.
      expect(membership.next_cycle_on > today).toBe(true);
      const cycles = await db
        .selectFrom('subscription_cycles')
        .innerJoin('orders', 'orders.id', 'subscription_cycles.order_id')
        .select(['orders.subscription_id', 'orders.total', 'orders.payment_status'])
        .where('subscription_cycles.subscription_id', '=', membership.id)
        .execute();
      expect(cycles.length).toBeGreaterThan(0);
      for (const cycle of cycles)
        expect(cycle).toEqual({ subscription_id: membership.id, total: membership.price, payment_status: 'paid' });
    }
  });

  it('creates one default mockup template pair drawn as PNGs', async () => {
    const templates = await db.selectFrom('mockup_templates').selectAll().execute();
    expect(templates.filter((t) => t.is_default)).toHaveLength(1);
    const template = templates.find((t) => t.is_default)!;
    expect(await storedPng(template.front_template_url)).toMatchObject({ bucket: 'templates', width: 1000, height: 1200 });
    expect(await storedPng(template.back_template_url)).toMatchObject({ bucket: 'templates', width: 1000, height: 1200 });
    expect(template.front_art_position).toEqual({ x: 50, y: 30, width: 30, height: 30, rotation: 0 });
  });

  it('creates demo customers with accounts and no admins', async () => {
    const customers = await db
      .selectFrom('customers')
      .innerJoin('users', 'users.id', 'customers.id')
      .selectAll('customers')
      .select(['users.email_confirmed_at', 'users.last_sign_in_at'])
      .execute();
    expect(customers.length).toBeGreaterThanOrEqual(4);
    expect(customers.every((c) => c.email.endsWith('@example.com') && c.first_name && c.shipping_address.country === 'USA')).toBe(true);
    expect(customers.some((c) => c.email_confirmed_at === null)).toBe(true);
    expect(customers.some((c) => c.last_sign_in_at !== null)).toBe(true);
    expect(customers.some((c) => c.is_admin)).toBe(false);
  });

  it('covers every order, payment and print status, with totals equal to the sum of the items', async () => {
    expect(await distinct(db.selectFrom('orders').select('status as value').execute())).toEqual(new Set(ORDER_STATUSES));
    const payments = await distinct(db.selectFrom('orders').select('payment_status as value').execute());
    expect(payments.size).toBeGreaterThanOrEqual(3);
    expect([...payments].every((p) => (PAYMENT_STATUSES as readonly string[]).includes(p))).toBe(true);
    expect(await distinct(db.selectFrom('order_items').select('print_status as value').execute())).toEqual(new Set(PRINT_STATUSES));

    const orders = await db.selectFrom('orders').selectAll().execute();
    expect(orders.length).toBeGreaterThanOrEqual(8);
    for (const order of orders) {
      const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', order.id).execute();
      expect(items.length).toBeGreaterThan(0);
      const cents = (value: string) => Math.round(Number(value) * 100);
      for (const item of items) {
        expect(item.product_id).not.toBeNull();
        expect(cents(item.total_price)).toBe(cents(item.unit_price) * item.quantity);
      }
      const sum = items.reduce((total, item) => total + cents(item.total_price), 0);
      expect(cents(order.subtotal)).toBe(sum);
      expect(cents(order.total)).toBe(sum);
      expect(cents(order.tax) + cents(order.shipping_cost)).toBe(0);
      if (order.status === 'shipped' || order.status === 'delivered') expect(order.tracking_number).toBeTruthy();
    }
  });

  it('covers every contact status', async () => {
    expect(await distinct(db.selectFrom('contact_submissions').select('status as value').execute())).toEqual(new Set(CONTACT_STATUSES));
  });

  it('covers every email status, with delivery attempts consistent with each row', async () => {
    const emails = await db.selectFrom('email_queue').selectAll().execute();
    expect(new Set(emails.map((e) => e.status))).toEqual(new Set(EMAIL_STATUSES));
    for (const email of emails) {
      expect(email.to_email.endsWith('@example.com')).toBe(true);
      const logs = await db.selectFrom('email_logs').selectAll().where('email_queue_id', '=', email.id).orderBy('attempt_number').execute();
      expect(logs.map((l) => l.attempt_number)).toEqual(logs.map((_, i) => i + 1));
      expect(logs.filter((l) => l.status !== 'success')).toHaveLength(email.retry_count);
      if (email.status === 'sent') {
        expect(logs.at(-1)).toMatchObject({ status: 'success', response_code: 250 });
        expect(email.sent_at).not.toBeNull();
      } else {
        expect(email.sent_at).toBeNull();
      }
      if (email.status === 'pending') expect(logs).toHaveLength(0);
      if (email.status === 'failed') {
        expect(logs.length).toBeGreaterThan(0);
        expect(email.next_retry_at).not.toBeNull();
        expect(email.retry_count).toBeLessThan(email.max_retries);
      }
      if (email.status === 'failed' || email.status === 'permanently_failed') {
        expect(logs.at(-1)?.status).toBe('failed');
        expect(email.last_error).toBe(logs.at(-1)?.error_message);
      }
    }
  });

  it('fills the artwork library with tagged, stored artwork', async () => {
    const artwork = await db.selectFrom('artwork_library').selectAll().execute();
    expect(artwork.length).toBeGreaterThanOrEqual(3);
    for (const item of artwork) {
      expect(item.created_by).toBeNull();
      expect((await storedPng(item.artwork_url)).bucket).toBe('product-art');
      expect((item.tags ?? []).every((tag) => tag === tag.toLowerCase())).toBe(true);
    }
  });
});

describe('seedIfEmpty on a store that already has a catalog', () => {
  it('does not seed', async () => {
    const other = await createTestDatabase();
    try {
      await other.db
        .insertInto('categories')
        .values({ slug: 'hoodies', name: 'Hoodies', description: 'Warm ones', image_url: '/storage/categories/h.png', sort_order: 1 })
        .execute();
      expect(await seedIfEmpty(other.db, storage)).toBe(false);
      const products = await other.db.selectFrom('products').select('id').execute();
      expect(products).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});
