import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/database';
import type { ProcedureMeta } from '../../src/server/trpc/init';
import { appRouter } from '../../src/server/trpc/router';
import { callerFor, testConfig } from '../support/app';
import { createAdmin, createCustomer } from '../support/factories';
import { createTestDatabase } from '../support/db';

// Generated from the router itself: a procedure added later is checked without editing this file.

interface ProcedureDef {
  _def: { type: 'query' | 'mutation' | 'subscription'; meta?: ProcedureMeta };
}
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>).map(([path, procedure]) => ({
  path,
  type: procedure._def.type,
  access: procedure._def.meta?.access ?? 'public',
  catalogRead: procedure._def.meta?.catalogRead === true,
}));

const GUARD_CODES = ['UNAUTHORIZED', 'FORBIDDEN'];

type User = { id: string; email: string } | null;

/** Calls a procedure with no input as the given user; a subscription is read once, then stopped. */
async function errorCodeOf(user: User, path: string): Promise<string | null> {
  const controller = new AbortController();
  const { caller } = callerFor(database, config, user, { signal: controller.signal });
  let target: unknown = caller;
  for (const part of path.split('.')) target = (target as Record<string, unknown>)[part];
  try {
    const result: unknown = await (target as (input?: unknown) => Promise<unknown>)(undefined);
    if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
      const first = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]().next();
      await Promise.race([first, new Promise((resolve) => setTimeout(resolve, 200))]);
    }
    return null;
  } catch (error) {
    return error instanceof TRPCError ? error.code : 'NON_TRPC_ERROR';
  } finally {
    controller.abort();
  }
}

let database: DatabaseHandle;
const config = testConfig();
const anonymous: User = null;
let customer: User;
let admin: User;

beforeAll(async () => {
  database = await createTestDatabase();
  customer = await createCustomer(database.db, { email: 'customer@example.com' });
  admin = await createAdmin(database.db, { email: 'admin@example.com' });
});
afterAll(() => database.close());

describe('the router', () => {
  it('has admin, customer and public procedures to check', () => {
    expect(procedures.filter((p) => p.access === 'admin').length).toBeGreaterThan(0);
    expect(procedures.filter((p) => p.access === 'customer').length).toBeGreaterThan(0);
    expect(procedures.filter((p) => p.access === 'public').length).toBeGreaterThan(0);
  });

  it('puts every admin.* procedure behind adminProcedure, and nothing else', () => {
    for (const { path, access } of procedures) {
      expect({ path, admin: access === 'admin' }).toEqual({ path, admin: path.startsWith('admin.') });
    }
  });

  it('keeps whole answers (one for every caller) of public catalog queries only', () => {
    const kept = procedures.filter((p) => p.catalogRead);
    expect(kept.map((p) => p.path).sort()).toEqual([
      'catalog.categories',
      'catalog.categoryBySlug',
      'catalog.colours',
      'catalog.featuredProducts',
      'catalog.productBySlug',
      'catalog.products',
      'catalog.search',
    ]);
    for (const { path, type, access } of kept) expect({ path, type, access }).toEqual({ path, type: 'query', access: 'public' });
  });
});

describe.each(procedures.filter((p) => p.access === 'admin'))('admin procedure $path', ({ path }) => {
  it('refuses anonymous callers with UNAUTHORIZED', async () => {
    expect(await errorCodeOf(anonymous, path)).toBe('UNAUTHORIZED');
  });
  it('refuses customers with FORBIDDEN', async () => {
    expect(await errorCodeOf(customer, path)).toBe('FORBIDDEN');
  });
  it('lets an admin past the guard', async () => {
    expect(GUARD_CODES).not.toContain(await errorCodeOf(admin, path));
  });
});

describe.each(procedures.filter((p) => p.access === 'customer'))('customer procedure $path', ({ path }) => {
  it('refuses anonymous callers with UNAUTHORIZED', async () => {
    expect(await errorCodeOf(anonymous, path)).toBe('UNAUTHORIZED');
  });
  it('lets a signed-in customer past the guard', async () => {
    expect(GUARD_CODES).not.toContain(await errorCodeOf(customer, path));
  });
});

describe('an admin demoted between two requests', () => {
  it('is refused on the very next call (is_admin is read fresh)', async () => {
    const { id, email } = await createAdmin(database.db, { email: 'former-admin@example.com' });
    const { caller } = callerFor(database, config, { id, email });
    await expect(caller.admin.dashboard.overview()).resolves.toBeDefined();
    await database.db.updateTable('customers').set({ is_admin: false }).where('id', '=', id).execute();
    await expect(caller.admin.dashboard.overview()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
