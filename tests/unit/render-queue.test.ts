import { describe, expect, it } from 'vitest';
import { RenderQueue, RendersBusyError } from '../../src/server/http/render-queue';

/** A render that lasts until the test ends it. */
function heldRender() {
  let end = () => {};
  let started = false;
  const render = () =>
    new Promise<string>((resolve) => {
      started = true;
      end = () => resolve('page');
    });
  return { render, end: () => end(), started: () => started };
}

/** Lets the event loop go round: the queue lets other requests in before each render starts. */
const nextTurns = async (turns: number) => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
};

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return error instanceof RendersBusyError ? error : undefined;
};

describe('RenderQueue', () => {
  it('runs a few renders at once and the rest in turn, while their wait stays short', async () => {
    // Two at a time; a render is taken to last 50 ms until one has ended: four more may wait 100 ms.
    const queue = new RenderQueue({ concurrency: 2, maxWaitMs: 100 });
    const renders = Array.from({ length: 6 }, heldRender);
    const pages = renders.map(({ render }) => queue.run(render));
    await nextTurns(2);
    expect(renders.map(({ started }) => started())).toEqual([true, true, false, false, false, false]);

    // A seventh would wait for three rounds of renders: refused at once, with when to come back.
    const busy = await refusal(queue.run(() => Promise.resolve('never rendered')));
    expect(busy?.retryAfterSeconds).toBe(1);

    // Each ended as it starts: the waiting ones take the places that free up.
    for (let turn = 0; turn < 10; turn++) {
      for (const { end } of renders) end();
      await nextTurns(1);
    }
    expect(await Promise.all(pages)).toEqual(Array(6).fill('page'));
    // Room again: taken at once.
    expect(await queue.run(() => Promise.resolve('next'))).toBe('next');
  });

  it('with no wait allowed, refuses every render while one holds the place', async () => {
    const queue = new RenderQueue({ concurrency: 1, maxWaitMs: 0 });
    const held = heldRender();
    const page = queue.run(held.render);
    expect(await refusal(queue.run(() => Promise.resolve('second')))).toBeInstanceOf(RendersBusyError);
    await nextTurns(2);
    held.end();
    expect(await page).toBe('page');
    expect(await queue.run(() => Promise.resolve('after'))).toBe('after');
  });

  it('frees the place of a render that failed', async () => {
    const queue = new RenderQueue({ concurrency: 1, maxWaitMs: 0 });
    await expect(queue.run(() => Promise.reject(new Error('render failed')))).rejects.toThrow('render failed');
    expect(await queue.run(() => Promise.resolve('next'))).toBe('next');
  });
});
