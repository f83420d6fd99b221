import { afterEach, describe, expect, it, vi } from 'vitest';
import { CatalogCache } from '../../src/server/catalog-cache';

/** A load whose answer the test gives when it wants, counting how often it ran. */
function controlledLoad() {
  const load = { runs: 0, finish: (_value: string) => {}, fail: (_error: Error) => {} };
  const run = () => {
    load.runs += 1;
    return new Promise<string>((resolve, reject) => {
      load.finish = resolve;
      load.fail = reject;
    });
  };
  return { load, run };
}

describe('CatalogCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a repeated read from memory, and loads again after an invalidation', async () => {
    const cache = new CatalogCache();
    let runs = 0;
    const load = () => Promise.resolve(`answer ${++runs}`);
    expect(await cache.read('shop', load)).toBe('answer 1');
    expect(await cache.read('shop', load)).toBe('answer 1');
    expect(await cache.read('home', load)).toBe('answer 2');
    cache.invalidate();
    expect(await cache.read('shop', load)).toBe('answer 3');
  });

  it('lets concurrent readers of a missing key share one load', async () => {
    const cache = new CatalogCache();
    const { load, run } = controlledLoad();
    const first = cache.read('shop', run);
    const second = cache.read('shop', run);
    load.finish('the shop');
    expect(await Promise.all([first, second])).toEqual(['the shop', 'the shop']);
    expect(load.runs).toBe(1);
  });

  it('never keeps an answer whose load began before an invalidation', async () => {
    const cache = new CatalogCache();
    const before = controlledLoad();
    const reading = cache.read('product', before.run);
    cache.invalidate();
    before.load.finish('old price');
    expect(await reading).toBe('old price');
    expect(await cache.read('product', () => Promise.resolve('new price'))).toBe('new price');
  });

  it('does not keep a failed load', async () => {
    const cache = new CatalogCache();
    const { load, run } = controlledLoad();
    const failing = cache.read('shop', run);
    load.fail(new Error('database away'));
    await expect(failing).rejects.toThrow('database away');
    expect(await cache.read('shop', () => Promise.resolve('the shop'))).toBe('the shop');
  });

  it('drops the least recently read entry beyond its size, and entries past their age', async () => {
    vi.useFakeTimers();
    // 10 entries: 2 for answers read once, 8 for answers read again.
    const cache = new CatalogCache({ maxEntries: 10, ttlMs: 1_000 });
    for (const key of ['a', 'b']) await cache.read(key, () => Promise.resolve(`${key}1`));
    await cache.read('c', () => Promise.resolve('c1')); // a third read once: a goes
    expect(await cache.read('b', () => Promise.resolve('b2'))).toBe('b1');
    expect(await cache.read('a', () => Promise.resolve('a2'))).toBe('a2');

    // Read again, answers stay until eight others have been read again after them.
    const often = ['d', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    for (const key of often) {
      await cache.read(key, () => Promise.resolve(`${key}1`));
      await cache.read(key, () => Promise.resolve(`${key}2`));
    }
    // b, read again first, is the least recently read of those: it went back among the read-once ones.
    expect(await cache.read('k', () => Promise.resolve('k3'))).toBe('k1');
    expect(await cache.read('b', () => Promise.resolve('b3'))).toBe('b1');
    vi.advanceTimersByTime(1_001);
    expect(await cache.read('b', () => Promise.resolve('b4'))).toBe('b4');
  });

  it('keeps the answers read more than once through a flood of answers read once', async () => {
    const cache = new CatalogCache({ maxEntries: 10 });
    await cache.read('home', () => Promise.resolve('home 1'));
    await cache.read('home', () => Promise.resolve('home 2'));
    for (let i = 0; i < 100; i++) await cache.read(`search ${i}`, () => Promise.resolve(`results ${i}`));
    expect(await cache.read('home', () => Promise.resolve('home 3'))).toBe('home 1');
  });

  it('lets an answer it does not keep push out nothing, even while it loads', async () => {
    const cache = new CatalogCache({ maxEntries: 2 });
    await cache.read('shop', () => Promise.resolve('the shop'));
    const notFound = (answer: string) => answer !== 'not found';
    const { load, run } = controlledLoad();
    const unknown = cache.read('product nobody has', run, notFound);
    const alsoUnknown = cache.read('another product nobody has', () => Promise.resolve('not found'), notFound);
    load.finish('not found');
    await Promise.all([unknown, alsoUnknown]);
    expect(await cache.read('shop', () => Promise.resolve('the shop, loaded again'))).toBe('the shop');
    expect(await cache.read('product nobody has', () => Promise.resolve('made since'), notFound)).toBe('made since');
  });

  it('keeps pages within a bound of their own, and empties them with the data they were made of', async () => {
    const cache = new CatalogCache({ maxEntries: 10, maxPages: 1 });
    const always = () => true;
    expect(await cache.read('shop', () => Promise.resolve('data'))).toBe('data');
    const first = cache.readPage('/shop', () => Promise.resolve('page 1'), always);
    expect([first.kept, await first.value]).toEqual([false, 'page 1']);
    const again = cache.readPage('/shop', () => Promise.resolve('page 2'), always);
    expect([again.kept, await again.value]).toEqual([true, 'page 1']);
    // A second page takes the one place: the first goes, and the data stays.
    await cache.readPage('/faq', () => Promise.resolve('faq'), always).value;
    expect(cache.readPage('/shop', () => Promise.resolve('page 3'), always).kept).toBe(false);
    expect(await cache.read('shop', () => Promise.resolve('data, read again'))).toBe('data');

    cache.invalidate();
    expect(cache.readPage('/shop', () => Promise.resolve('page 4'), always).kept).toBe(false);
    expect(await cache.read('shop', () => Promise.resolve('data, read again'))).toBe('data, read again');
  });
});
