import { beforeEach, describe, expect, it } from 'vitest';
import * as messages from '../../src/shared/schemas/admin-artwork';
import { ARTWORK_PAGE_SIZE, type ArtworkCreateInput } from '../../src/shared/schemas/admin-artwork';
import { callTrpc, sharedCallers, sharedTestApp } from '../support/app';
import { trpcFailure } from '../support/async';

// admin.artwork.*: list (paged, with server-side search and tag filter), tags, create, update, delete.
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
    const list = await artwork().list({});
    expect(list).toMatchObject({ total: 4, page: 1, pageCount: 1, pageSize: ARTWORK_PAGE_SIZE });
    expect(list.items.map((row) => row.name)).toEqual(['Many', 'Hot Rod', 'Cross 100%', 'Skull Rider']);
    expect(Object.keys(list.items[0]!).sort()).toEqual([
      'artwork_url',
      'created_at',
      'created_by',
      'description',
      'id',
      'name',
      'tags',
      'updated_at',
    ]);
  });

  it('searches name or description, case-insensitively, with % and _ taken literally', async () => {
    await seed();
    const found: [search: string, names: string[]][] = [
      ['skull', ['Skull Rider']],
      ['CHOPPER', ['Skull Rider']],
      ['hot rod', ['Hot Rod']],
      ['100%', ['Cross 100%']],
      ['_', ['Hot Rod']],
      ['nothing like this', []],
    ];
    for (const [search, names] of found) {
      expect(
        (await artwork().list({ search })).items.map((row) => row.name),
        search,
      ).toEqual(names);
    }
  });

  it('filters by tag, case-insensitively, together with the search', async () => {
    await seed();
    expect((await artwork().list({ tag: 'MOTO' })).items.map((row) => row.name)).toEqual(['Many', 'Skull Rider']);
    expect((await artwork().list({ tag: 'moto', search: 'rider' })).items.map((row) => row.name)).toEqual(['Skull Rider']);
    expect(await artwork().list({ tag: 'nope' })).toMatchObject({ items: [], total: 0, page: 1, pageCount: 1 });
  });

  it('gives every distinct tag sorted, and the first 10 distinct tags newest first', async () => {
    await seed();
    const tags = await artwork().tags();
    expect(tags.all).toEqual(['alpha', 'b', 'c', 'd', 'e', 'f', 'faith', 'g', 'h', 'i', 'j', 'moto', 'skull', 'zeta']);
    expect(tags.popular).toEqual(['zeta', 'alpha', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  });
});

/**
 * `count` artworks in one statement, a minute apart (the first newest): "Design <n>", tagged
 * "tag<n mod 7>" (and "even" for even n); every fifth described as "Skull ...".
 */
async function insertManyArtworks(count: number) {
  const start = Date.parse('2025-06-01T12:00:00Z');
  await t.db
    .insertInto('artwork_library')
    .values(
      Array.from({ length: count }, (_, n) => ({
        name: `Design ${n}`,
        description: n % 5 === 0 ? `Skull number ${n}` : null,
        artwork_url: `/storage/product-art/${n}.png`,
        tags: n % 2 === 0 ? [`tag${n % 7}`, 'even'] : [`tag${n % 7}`],
        created_at: new Date(start - n * 60_000),
      })),
    )
    .execute();
}

describe('paging', () => {
  it('pages the library newest first, every artwork once', async () => {
    const count = 2 * ARTWORK_PAGE_SIZE + 5;
    await insertManyArtworks(count);
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await artwork().list({ page }));
    expect(pages.map((p) => p.items.length)).toEqual([ARTWORK_PAGE_SIZE, ARTWORK_PAGE_SIZE, 5]);
    expect(pages.flatMap((p) => p.items.map((row) => row.name))).toEqual(Array.from({ length: count }, (_, n) => `Design ${n}`));
    expect(pages[2]).toMatchObject({ page: 3, pageCount: 3, total: count, pageSize: ARTWORK_PAGE_SIZE });
  });

  it('searches and filters by tag over the whole library, paging what they find', async () => {
    await insertManyArtworks(3 * ARTWORK_PAGE_SIZE);
    // "even": half of them, over two pages.
    const even1 = await artwork().list({ tag: 'EVEN' });
    const even2 = await artwork().list({ tag: 'even', page: 2 });
    expect(even1).toMatchObject({ total: 36, pageCount: 2 });
    expect([...even1.items, ...even2.items].map((row) => row.name)).toEqual(Array.from({ length: 36 }, (_, n) => `Design ${2 * n}`));
    // Described "Skull ...": every fifth, found by description case-insensitively, also on the last page.
    const skulls = await artwork().list({ search: 'SKULL' });
    expect(skulls.items.map((row) => row.name)).toEqual(Array.from({ length: 15 }, (_, n) => `Design ${5 * n}`));
    expect((await artwork().list({ search: 'skull', tag: 'even' })).items.map((row) => row.name)).toEqual(
      [0, 10, 20, 30, 40, 50, 60, 70].map((n) => `Design ${n}`),
    );
    expect((await artwork().list({ search: 'design 71' })).items.map((row) => row.name)).toEqual(['Design 71']);
  });

  it('gives the tags of the whole library, not of a page', async () => {
    await insertManyArtworks(3 * ARTWORK_PAGE_SIZE);
    const tags = await artwork().tags();
    expect(tags.all).toEqual(['even', 'tag0', 'tag1', 'tag2', 'tag3', 'tag4', 'tag5', 'tag6']);
    // Newest first: Design 0 (tag0, even), Design 1 (tag1), ...
    expect(tags.popular).toEqual(['tag0', 'even', 'tag1', 'tag2', 'tag3', 'tag4', 'tag5', 'tag6']);
  });

  it("offers at most 10 popular tags, with an artwork's tags in their own order", async () => {
    await insertManyArtworks(2);
    await t.db
      .insertInto('artwork_library')
      .values({
        name: 'Newest',
        artwork_url: '/storage/product-art/n.png',
        tags: ['zz', 'yy', 'xx', 'ww', 'vv', 'uu', 'tt', 'ss', 'rr', 'qq', 'pp'],
        created_at: new Date('2030-01-01T00:00:00Z'),
      })
      .execute();
    const tags = await artwork().tags();
    expect(tags.popular).toEqual(['zz', 'yy', 'xx', 'ww', 'vv', 'uu', 'tt', 'ss', 'rr', 'qq']);
    expect(tags.all).toHaveLength(11 + 3);
    await t.db.deleteFrom('artwork_library').execute();
    expect(await artwork().tags()).toEqual({ all: [], popular: [] });
  });

  it('answers a page past the end with the last page, and refuses bad pages', async () => {
    await insertManyArtworks(ARTWORK_PAGE_SIZE + 2);
    const past = await artwork().list({ page: 99_999 });
    expect(past).toMatchObject({ page: 2, pageCount: 2 });
    expect(past.items.map((row) => row.name)).toEqual([`Design ${ARTWORK_PAGE_SIZE}`, `Design ${ARTWORK_PAGE_SIZE + 1}`]);
    for (const page of [0, -3, 1.5, 100_001, 1e300]) {
      const res = await callTrpc(t.app, 'admin.artwork.list', { type: 'query', input: { page }, cookie: as.cookies.admin });
      expect(res.statusCode).toBe(400);
      expect(res.error?.message).toBe('Invalid page');
    }
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
    expect((await http('create', { name: '   ', artwork_url: '/storage/product-art/x.png' })).error?.message).toBe(
      messages.ARTWORK_CREATE_REQUIRED,
    );
    expect((await http('create', { name: 'Art', artwork_url: '' })).error?.message).toBe(messages.ARTWORK_CREATE_REQUIRED);
    expect((await http('create', { name: 'Art', artwork_url: 'javascript:alert(1)' })).error?.message).toBe(messages.INVALID_ARTWORK_URL);
    expect(await rows()).toEqual([]);
  });

  it('is for admins only', async () => {
    const res = await trpcFailure(as.customer.admin.artwork.create({ name: 'Art', artwork_url: '/storage/product-art/x.png' }));
    expect(res.code).toBe('FORBIDDEN');
    expect((await trpcFailure(as.customer.admin.artwork.list({}))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as.customer.admin.artwork.tags())).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as.anonymous.admin.artwork.list({}))).code).toBe('UNAUTHORIZED');
    expect(await rows()).toEqual([]);
  });
});

describe('update and delete', () => {
  it('updates the fields, keeping created_by', async () => {
    const created = await artwork().create({ name: 'Old', artwork_url: '/storage/product-art/x.png', tags: ['a'] });
    await artwork().update({
      id: created.id,
      updatedAt: created.updated_at,
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
    const updatedAt = created.updated_at;
    expect((await http('update', { id: created.id, updatedAt, name: ' ', artwork_url: '/storage/product-art/x.png' })).error?.message).toBe(
      messages.ARTWORK_EDIT_REQUIRED,
    );
    expect((await http('update', { id: created.id, updatedAt, name: 'New', artwork_url: ' ' })).error?.message).toBe(
      messages.ARTWORK_EDIT_REQUIRED,
    );
    expect((await rows())[0]?.name).toBe('Old');
  });

  it('answers NOT_FOUND for unknown artwork', async () => {
    const id = crypto.randomUUID();
    const update = await trpcFailure(
      artwork().update({ id, updatedAt: new Date().toISOString(), name: 'X', artwork_url: '/storage/product-art/x.png' }),
    );
    expect(update.message).toBe(messages.ARTWORK_NOT_FOUND);
    expect((await trpcFailure(artwork().delete({ id }))).code).toBe('NOT_FOUND');
  });

  it('refuses to save a form opened before the artwork was changed elsewhere, keeping that change', async () => {
    const created = await artwork().create({ name: 'Old', artwork_url: '/storage/product-art/x.png', tags: ['a'] });
    // Another admin (or tab) retags it while this form is open with the old tags.
    await artwork().update({ id: created.id, updatedAt: created.updated_at, name: 'Old', artwork_url: created.artwork_url, tags: ['b'] });
    const stale = await http('update', {
      id: created.id,
      updatedAt: created.updated_at,
      name: 'Mine',
      artwork_url: created.artwork_url,
      tags: ['a'],
    });
    expect([stale.statusCode, stale.error?.message]).toEqual([409, messages.ARTWORK_CHANGED_ELSEWHERE]);
    expect((await rows())[0]).toMatchObject({ name: 'Old', tags: ['b'] });
  });

  it('deletes', async () => {
    const created = await artwork().create({ name: 'Gone', artwork_url: '/storage/product-art/x.png' });
    await artwork().delete({ id: created.id });
    expect(await rows()).toEqual([]);
  });
});
