import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/database';
import { SEARCH_MAX_LENGTH } from '../../src/shared/search';
import { callerFor, testConfig } from '../support/app';
import { createTestDatabase } from '../support/db';
import { createCategory, createProduct } from '../support/factories';

// The storefront's search on the database the suite runs on: typos forgiven through pg_trgm, name
// matches first, the shop's filters and sorts, and what a visitor types only ever a parameter.

let database: DatabaseHandle;
let catalog: ReturnType<typeof callerFor>['caller']['catalog'];
const names = (items: { name: string }[]) => items.map((item) => item.name);

beforeAll(async () => {
  database = await createTestDatabase();
  catalog = callerFor(database, testConfig(), null).caller.catalog;
  const db = database.db;
  const moto = await createCategory(db, { slug: 'motorcycle', name: 'Motorcycle' });
  const christian = await createCategory(db, { slug: 'christian', name: 'Christian' });
  const hidden = await createCategory(db, { slug: 'hidden', name: 'Hidden', is_active: false });
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));
  await createProduct(db, {
    name: 'Ride Free Badge Tee',
    description: 'A round badge for the open road.',
    tags: ['vintage', 'badge'],
    price: '27.99',
    category_id: moto.id,
    created_at: day(1),
  });
  await createProduct(db, {
    name: 'Motorcycle Sunset Tee',
    description: 'Two wheels and a sunset.',
    price: '29.99',
    category_id: moto.id,
    created_at: day(2),
  });
  await createProduct(db, {
    name: 'Fishers of Men Tee',
    description: 'The ichthys, drawn in one line.',
    tags: ['fish', 'jesus'],
    price: '24.99',
    category_id: christian.id,
    created_at: day(3),
  });
  await createProduct(db, {
    name: 'Grace Upon Grace Tee',
    description: 'A dove over still water.',
    price: '26.99',
    category_id: christian.id,
    created_at: day(4),
  });
  await createProduct(db, { name: 'Retired Motorcycle Tee', category_id: moto.id, is_active: false });
  await createProduct(db, { name: 'Hidden Motorcycle Tee', category_id: hidden.id });
});

afterAll(() => database.close());

describe('catalog.search', () => {
  it('forgives typos and missing letters, in the name, tags, category and description', async () => {
    // "motorcyle": the category of one, the name of the other; the name match comes first.
    expect(names((await catalog.search({ q: 'motorcyle' })).items)).toEqual(['Motorcycle Sunset Tee', 'Ride Free Badge Tee']);
    expect(names((await catalog.search({ q: 'christain' })).items).sort()).toEqual(['Fishers of Men Tee', 'Grace Upon Grace Tee']);
    expect(names((await catalog.search({ q: 'jesu' })).items)).toEqual(['Fishers of Men Tee']);
    expect(names((await catalog.search({ q: 'ichthy' })).items)).toEqual(['Fishers of Men Tee']);
    expect(names((await catalog.search({ q: 'Vintge' })).items)).toEqual(['Ride Free Badge Tee']);
  });

  it('ranks products whose name matches before those that match elsewhere', async () => {
    // "badge" is in one name and one description ("round badge") of the same product; "sunset" in a
    // name, "road" in a description: the name's product leads.
    expect(names((await catalog.search({ q: 'sunset road' })).items)).toEqual(['Motorcycle Sunset Tee', 'Ride Free Badge Tee']);
  });

  it('finds nothing for words the catalog does not have, and never inactive products', async () => {
    expect((await catalog.search({ q: 'zebra' })).items).toEqual([]);
    expect(names((await catalog.search({ q: 'retired' })).items)).toEqual([]);
    expect(names((await catalog.search({ q: 'hidden' })).items)).toEqual([]);
  });

  it('has the shop filters and sorts', async () => {
    expect(names((await catalog.search({ q: 'tee', category: 'christian' })).items).sort()).toEqual([
      'Fishers of Men Tee',
      'Grace Upon Grace Tee',
    ]);
    expect(names((await catalog.search({ q: 'tee', sort: 'price-low' })).items)).toEqual([
      'Fishers of Men Tee',
      'Grace Upon Grace Tee',
      'Ride Free Badge Tee',
      'Motorcycle Sunset Tee',
    ]);
    expect(names((await catalog.search({ q: 'tee', sort: 'newest' })).items)[0]).toBe('Grace Upon Grace Tee');
  });

  it('pages through results', async () => {
    const first = await catalog.search({ q: 'tee', sort: 'price-high', limit: 3 });
    expect(names(first.items)).toEqual(['Motorcycle Sunset Tee', 'Ride Free Badge Tee', 'Grace Upon Grace Tee']);
    expect(first.nextCursor).not.toBeNull();
    const second = await catalog.search({ q: 'tee', sort: 'price-high', limit: 3, cursor: first.nextCursor! });
    expect(names(second.items)).toEqual(['Fishers of Men Tee']);
    expect(second.nextCursor).toBeNull();
  });

  it('searches nothing for an empty query or only punctuation, and cuts a long one', async () => {
    expect((await catalog.search({ q: '' })).items).toEqual([]);
    expect((await catalog.search({ q: ' ?!-- ' })).items).toEqual([]);
    // The word past the cut is not searched.
    const long = `${'x'.repeat(SEARCH_MAX_LENGTH - 1)} motorcycle`;
    expect((await catalog.search({ q: long })).items).toEqual([]);
  });

  it('takes what a visitor types as a parameter, never as SQL', async () => {
    for (const q of ["'; DROP TABLE products; --", 'tee:* | !x', "o'brien \\ % _", 'a & b | c <-> d']) {
      await expect(catalog.search({ q })).resolves.toBeDefined();
    }
    expect((await catalog.search({ q: 'tee' })).items).toHaveLength(4);
  });

  it('finds a product by its category after the category is renamed', async () => {
    const category = await createCategory(database.db, { slug: 'cars', name: 'Cars' });
    await createProduct(database.db, { name: 'Plain Blue Tee', category_id: category.id });
    expect(names((await catalog.search({ q: 'hatchback' })).items)).toEqual([]);
    await database.db.updateTable('categories').set({ name: 'Hatchbacks' }).where('id', '=', category.id).execute();
    expect(names((await catalog.search({ q: 'hatchback' })).items)).toEqual(['Plain Blue Tee']);
  });
});
