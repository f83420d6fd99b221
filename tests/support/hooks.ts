import { afterAll, beforeAll } from 'vitest';

/**
 * One thing made before all the tests of a file (or a describe) and shared by them: returns an
 * object at once, for the top level to name (`const t = sharedBeforeAll(...)`), which beforeAll
 * takes the own properties of what `make` returns (a plain object, not a class instance);
 * `release` runs in afterAll if `make` got that far. Read its fields inside hooks and tests
 * only: before beforeAll it is empty.
 */
export function sharedBeforeAll<T extends object>(make: () => Promise<T>, release?: (made: T) => Promise<unknown>): T {
  const shared = {} as T;
  let made: T | undefined;
  beforeAll(async () => {
    made = await make();
    // Descriptors, not values, so accessors (a settable reply, say) still reach what they wrap.
    Object.defineProperties(shared, Object.getOwnPropertyDescriptors(made));
  });
  afterAll(async () => {
    if (made && release) await release(made);
  });
  return shared;
}
