import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ARTWORK_CREATE_REQUIRED, ARTWORK_EDIT_REQUIRED, ARTWORK_NOT_FOUND, INVALID_ARTWORK_URL } from '../../src/shared/schemas/admin-artwork';
import { callTrpc, createTestApp, insertUser, signUp, type TestApp } from '../helpers/app';

// admin.artwork.*: list (server-side search and tag filter), tags, create, update, delete.

interface ArtworkRow {
  id: string;
  name: string;
  description: string | null;
  artwork_url: string;
  tags: string[] | null;
  created_by: string | null;
}

let t: TestApp;
let admin: string;
let adminId: string;
let customer: string;

beforeAll(async () => {
  t = await createTestApp();
  adminId = await insertUser(t.db, 'admin@example.com', { admin: true });
  const res = await callTrpc(t.app, 'auth.signIn', { input: { email: 'admin@example.com', password: 'secret123' } });
  admin = `session=${res.cookies.session}`;
  customer = await signUp(t.app, 'shopper@example.com');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.deleteFrom('artwork_library').execute();
});

const QUERIES = new Set(['list', 'tags']);
const call = <T = unknown>(procedure: string, input?: unknown, cookie = admin) =>
  callTrpc<T>(t.app, `admin.artwork.${procedure}`, { input, cookie, type: QUERIES.has(procedure) ? 'query' : 'mutation' });
const rows = () => t.db.selectFrom('artwork_library').selectAll().orderBy('created_at').execute();

async function seed() {
  const base = Date.parse('2025-03-01T12:00:00Z');
  await t.db
    .insertInto('artwork_library')
    .values([
      { name: 'Skull Rider', description: 'Flaming SKULL on a chopper', artwork_url: '/storage/product-art/1.png', tags: ['moto', 'skull'], created_at: new Date(base) },
      { name: 'Cross 100%', description: null, artwork_url: '/storage/product-art/2.png', tags: ['faith'], created_at: new Date(base + 1000) },
      { name: 'Hot Rod', description: 'V8 under_the hood', artwork_url: '/storage/product-art/3.png', tags: null, created_at: new Date(base + 2000) },
      {
        name: 'Many',
        artwork_url: '/storage/product-art/4.png',
        tags: ['zeta', 'alpha', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'moto'],
        created_at: new Date(base + 3000),
      },
    ])
    .execute();
}

describe('list and tags', () => {
  it('lists newest first with every column the cards show', async () => {
    await seed();
    const res = await call<(ArtworkRow & { created_at: string })[]>('list');
    expect(res.data?.map((row) => row.name)).toEqual(['Many', 'Hot Rod', 'Cross 100%', 'Skull Rider']);
    expect(Object.keys(res.data![0]!).sort()).toEqual(['artwork_url', 'created_at', 'created_by', 'description', 'id', 'name', 'tags']);
  });

  it('searches name or description, case-insensitively, with % and _ taken literally', async () => {
    await seed();
    const names = async (search: string) => (await call<ArtworkRow[]>('list', { search })).data?.map((row) => row.name);
    expect(await names('skull')).toEqual(['Skull Rider']);
    expect(await names('CHOPPER')).toEqual(['Skull Rider']);
    expect(await names('hot rod')).toEqual(['Hot Rod']);
    expect(await names('100%')).toEqual(['Cross 100%']);
    expect(await names('_')).toEqual(['Hot Rod']);
    expect(await names('nothing like this')).toEqual([]);
  });

  it('filters by tag, case-insensitively, together with the search', async () => {
    await seed();
    expect((await call<ArtworkRow[]>('list', { tag: 'MOTO' })).data?.map((row) => row.name)).toEqual(['Many', 'Skull Rider']);
    expect((await call<ArtworkRow[]>('list', { tag: 'moto', search: 'rider' })).data?.map((row) => row.name)).toEqual(['Skull Rider']);
  });

  it('gives every distinct tag sorted, and the first 10 distinct tags newest first', async () => {
    await seed();
    const res = await call<{ all: string[]; popular: string[] }>('tags');
    expect(res.data?.all).toEqual(['alpha', 'b', 'c', 'd', 'e', 'f', 'faith', 'g', 'h', 'i', 'j', 'moto', 'skull', 'zeta']);
    expect(res.data?.popular).toEqual(['zeta', 'alpha', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  });
});

describe('create', () => {
  it('stores trimmed fields, lowercased unique tags and the uploading admin as created_by', async () => {
    const res = await call<ArtworkRow>('create', {
      name: '  Iron Cross ',
      description: '  Bold  ',
      artwork_url: '/storage/product-art/x.png',
      tags: [' Moto ', 'moto', 'FAITH', '  '],
    });
    expect(res.error).toBeUndefined();
    const [row] = await rows();
    expect(row).toMatchObject({ name: 'Iron Cross', description: 'Bold', tags: ['moto', 'faith'], created_by: adminId });
  });

  it('saves an empty description and no tags as null', async () => {
    await call('create', { name: 'Plain', description: '   ', artwork_url: '/storage/product-art/x.png', tags: [] });
    expect((await rows())[0]).toMatchObject({ description: null, tags: null });
  });

  it('never takes created_by from the input', async () => {
    await call('create', { name: 'Sneaky', artwork_url: '/storage/product-art/x.png', created_by: crypto.randomUUID() });
    expect((await rows())[0]?.created_by).toBe(adminId);
  });

  it("refuses a blank name or a missing image: 'Please provide a name and upload an image'", async () => {
    expect((await call('create', { name: '   ', artwork_url: '/storage/product-art/x.png' })).error?.message).toBe(ARTWORK_CREATE_REQUIRED);
    expect((await call('create', { name: 'Art', artwork_url: '' })).error?.message).toBe(ARTWORK_CREATE_REQUIRED);
    expect((await call('create', { name: 'Art', artwork_url: 'javascript:alert(1)' })).error?.message).toBe(INVALID_ARTWORK_URL);
    expect(await rows()).toEqual([]);
  });

  it('is for admins only', async () => {
    const res = await call('create', { name: 'Art', artwork_url: '/storage/product-art/x.png' }, customer);
    expect(res.error?.data.code).toBe('FORBIDDEN');
    expect((await call('list', undefined, customer)).error?.data.code).toBe('FORBIDDEN');
    expect(await rows()).toEqual([]);
  });
});

describe('update and delete', () => {
  it('updates the fields, keeping created_by', async () => {
    const created = (await call<ArtworkRow>('create', { name: 'Old', artwork_url: '/storage/product-art/x.png', tags: ['a'] })).data!;
    const res = await call<ArtworkRow>('update', { id: created.id, name: 'New', description: '', artwork_url: '/storage/product-art/y.png', tags: [] });
    expect(res.error).toBeUndefined();
    expect((await rows())[0]).toMatchObject({ name: 'New', description: null, artwork_url: '/storage/product-art/y.png', tags: null, created_by: adminId });
  });

  it("refuses a blank name or image: 'Please provide a name and image'", async () => {
    const created = (await call<ArtworkRow>('create', { name: 'Old', artwork_url: '/storage/product-art/x.png' })).data!;
    expect((await call('update', { id: created.id, name: ' ', artwork_url: '/storage/product-art/x.png' })).error?.message).toBe(ARTWORK_EDIT_REQUIRED);
    expect((await call('update', { id: created.id, name: 'New', artwork_url: ' ' })).error?.message).toBe(ARTWORK_EDIT_REQUIRED);
    expect((await rows())[0]?.name).toBe('Old');
  });

  it('answers NOT_FOUND for unknown artwork', async () => {
    const id = crypto.randomUUID();
    const update = await call('update', { id, name: 'X', artwork_url: '/storage/product-art/x.png' });
    expect(update.error?.message).toBe(ARTWORK_NOT_FOUND);
    expect((await call('delete', { id })).error?.data.code).toBe('NOT_FOUND');
  });

  it('deletes', async () => {
    const created = (await call<ArtworkRow>('create', { name: 'Gone', artwork_url: '/storage/product-art/x.png' })).data!;
    expect((await call('delete', { id: created.id })).error).toBeUndefined();
    expect(await rows()).toEqual([]);
  });
});
