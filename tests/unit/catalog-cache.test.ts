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
    const cache = new CatalogCache({ maxEntries: 2, ttlMs: 1_000 });
    await cache.read('a', () => Promise.resolve('a1'));
    await cache.read('b', () => Promise.resolve('b1'));
    await cache.read('a', () => Promise.resolve('a2')); // read again: now the most recent
    await cache.read('c', () => Promise.resolve('c1')); // one too many: b goes
    expect(await cache.read('a', () => Promise.resolve('a3'))).toBe('a1');
    expect(await cache.read('b', () => Promise.resolve('b2'))).toBe('b2');
    vi.advanceTimersByTime(1_001);
    expect(await cache.read('b', () => Promise.resolve('b3'))).toBe('b3');
  });
});
