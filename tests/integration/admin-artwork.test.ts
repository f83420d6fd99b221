import { beforeEach, describe, expect, it } from 'vitest';
import {
  ARTWORK_CREATE_REQUIRED,
  ARTWORK_EDIT_REQUIRED,
  ARTWORK_NOT_FOUND,
  INVALID_ARTWORK_URL,
  type ArtworkCreateInput,
} from '../../src/shared/schemas/admin-artwork';
import { callTrpc, sharedCallers, sharedTestApp } from '../support/app';
import { trpcFailure } from '../support/async';

// admin.artwork.*: list (server-side search and tag filter), tags, create, update, delete.
// Through callers; over HTTP where a test checks the errorFormatter's message for bad input.

const t = sharedTestApp();
const as = sharedCallers(t);
beforeEach(async () => {
  await t.db.deleteFrom('artwork_library').execute();
});

const http = (procedure: 'create' | 'update', input: unknown) =>
  callTrpc(t.app, `admin.artwork.${procedure}`, { input, cookie: as.cookies.admin });
const artwork = () => as.admin.admin.artwork;
const rows = () => t.db.selectFrom('artwork_library').selectAll().orderBy('created_at').execute();

async function seed() {
  const base = Date.parse('2025-03-01T12:00:00Z');
  await t.db
    .insertInto('artwork_library')
    .values([
      {
        name: 'Skull Rider',
        description: 'Flaming SKULL on a chopper',
        artwork_url: '/storage/product-art/1.png',
        tags: ['moto', 'skull'],
        created_at: new Date(base),
      },
      {
        name: 'Cross 100%',
        description: null,
        artwork_url: '/storage/product-art/2.png',
        tags: ['faith'],
        created_at: new Date(base + 1000),
      },
      {
        name: 'Hot Rod',
        description: 'V8 under_the hood',
        artwork_url: '/storage/product-art/3.png',
        tags: null,
        created_at: new Date(base + 2000),
      },
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
    const list = await artwork().list();
    expect(list.map((row) => row.name)).toEqual(['Many', 'Hot Rod', 'Cross 100%', 'Skull Rider']);
    expect(Object.keys(list[0]!).sort()).toEqual(['artwork_url', 'created_at', 'created_by', 'description', 'id', 'name', 'tags']);
  });

  it('searches name or description, case-insensitively, with % and _ taken literally', async () => {
    await seed();
    const names = async (search: string) => (await artwork().list({ search })).map((row) => row.name);
    expect(await names('skull')).toEqual(['Skull Rider']);
    expect(await names('CHOPPER')).toEqual(['Skull Rider']);
    expect(await names('hot rod')).toEqual(['Hot Rod']);
    expect(await names('100%')).toEqual(['Cross 100%']);
    expect(await names('_')).toEqual(['Hot Rod']);
    expect(await names('nothing like this')).toEqual([]);
  });

  it('filters by tag, case-insensitively, together with the search', async () => {
    await seed();
    expect((await artwork().list({ tag: 'MOTO' })).map((row) => row.name)).toEqual(['Many', 'Skull Rider']);
    expect((await artwork().list({ tag: 'moto', search: 'rider' })).map((row) => row.name)).toEqual(['Skull Rider']);
  });

  it('gives every distinct tag sorted, and the first 10 distinct tags newest first', async () => {
    await seed();
    const tags = await artwork().tags();
    expect(tags.all).toEqual(['alpha', 'b', 'c', 'd', 'e', 'f', 'faith', 'g', 'h', 'i', 'j', 'moto', 'skull', 'zeta']);
    expect(tags.popular).toEqual(['zeta', 'alpha', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  });
});

describe('create', () => {
  it('stores trimmed fields, lowercased unique tags and the uploading admin as created_by', async () => {
    await artwork().create({
      name: '  Iron Cross ',
      description: '  Bold  ',
      artwork_url: '/storage/product-art/x.png',
      tags: [' Moto ', 'moto', 'FAITH', '  '],
    });
    const [row] = await rows();
    expect(row).toMatchObject({ name: 'Iron Cross', description: 'Bold', tags: ['moto', 'faith'], created_by: as.users.admin.id });
  });

  it('saves an empty description and no tags as null', async () => {
    await artwork().create({ name: 'Plain', description: '   ', artwork_url: '/storage/product-art/x.png', tags: [] });
    expect((await rows())[0]).toMatchObject({ description: null, tags: null });
  });

  it('never takes created_by from the input', async () => {
    await artwork().create({
      name: 'Sneaky',
      artwork_url: '/storage/product-art/x.png',
      created_by: crypto.randomUUID(),
    } as ArtworkCreateInput);
    expect((await rows())[0]?.created_by).toBe(as.users.admin.id);
  });

  it("refuses a blank name or a missing image: 'Please provide a name and upload an image'", async () => {
    expect((await http('create', { name: '   ', artwork_url: '/storage/product-art/x.png' })).error?.message).toBe(ARTWORK_CREATE_REQUIRED);
    expect((await http('create', { name: 'Art', artwork_url: '' })).error?.message).toBe(ARTWORK_CREATE_REQUIRED);
    expect((await http('create', { name: 'Art', artwork_url: 'javascript:alert(1)' })).error?.message).toBe(INVALID_ARTWORK_URL);
    expect(await rows()).toEqual([]);
  });

  it('is for admins only', async () => {
    const res = await trpcFailure(as.customer.admin.artwork.create({ name: 'Art', artwork_url: '/storage/product-art/x.png' }));
    expect(res.code).toBe('FORBIDDEN');
    expect((await trpcFailure(as.customer.admin.artwork.list())).code).toBe('FORBIDDEN');
    expect(await rows()).toEqual([]);
  });
});

describe('update and delete', () => {
  it('updates the fields, keeping created_by', async () => {
    const created = await artwork().create({ name: 'Old', artwork_url: '/storage/product-art/x.png', tags: ['a'] });
    await artwork().update({
      id: created.id,
      name: 'New',
      description: '',
      artwork_url: '/storage/product-art/y.png',
      tags: [],
    });
    expect((await rows())[0]).toMatchObject({
      name: 'New',
      description: null,
      artwork_url: '/storage/product-art/y.png',
      tags: null,
      created_by: as.users.admin.id,
    });
  });

  it("refuses a blank name or image: 'Please provide a name and image'", async () => {
    const created = await artwork().create({ name: 'Old', artwork_url: '/storage/product-art/x.png' });
    expect((await http('update', { id: created.id, name: ' ', artwork_url: '/storage/product-art/x.png' })).error?.message).toBe(
      ARTWORK_EDIT_REQUIRED,
    );
    expect((await http('update', { id: created.id, name: 'New', artwork_url: ' ' })).error?.message).toBe(ARTWORK_EDIT_REQUIRED);
    expect((await rows())[0]?.name).toBe('Old');
  });

  it('answers NOT_FOUND for unknown artwork', async () => {
    const id = crypto.randomUUID();
    const update = await trpcFailure(artwork().update({ id, name: 'X', artwork_url: '/storage/product-art/x.png' }));
    expect(update.message).toBe(ARTWORK_NOT_FOUND);
    expect((await trpcFailure(artwork().delete({ id }))).code).toBe('NOT_FOUND');
  });

  it('deletes', async () => {
    const created = await artwork().create({ name: 'Gone', artwork_url: '/storage/product-art/x.png' });
    await artwork().delete({ id: created.id });
    expect(await rows()).toEqual([]);
  });
});
