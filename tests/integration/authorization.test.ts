import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/database';
import type { ProcedureMeta } from '../../src/server/trpc/init';
import { appRouter } from '../../src/server/trpc/router';
import { callerFor, insertUser, testConfig } from '../helpers/app';
import { createTestDatabase } from '../helpers/db';

// Generated from the router itself: a procedure added later is checked without editing this file.

interface ProcedureDef {
  _def: { type: 'query' | 'mutation' | 'subscription'; meta?: ProcedureMeta };
}
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>).map(([path, procedure]) => ({
  path,
  type: procedure._def.type,
  access: procedure._def.meta?.access ?? 'public',
}));

const GUARD_CODES = ['UNAUTHORIZED', 'FORBIDDEN'];

type Caller = ReturnType<typeof callerFor>['caller'];

async function invoke(caller: Caller, path: string): Promise<unknown> {
  let target: unknown = caller;
  for (const part of path.split('.')) target = (target as Record<string, unknown>)[part];
  const result: unknown = await (target as (input?: unknown) => Promise<unknown>)(undefined);
  // A subscription hands back an iterator; read once so its middleware and body run.
  if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
    const iterator = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    await Promise.race([iterator.next(), new Promise((resolve) => setTimeout(resolve, 200))]);
    await iterator.return?.();
  }
  return result;
}

async function errorCodeOf(caller: Caller, path: string): Promise<string | null> {
  try {
    await invoke(caller, path);
    return null;
  } catch (error) {
    return error instanceof TRPCError ? error.code : 'NON_TRPC_ERROR';
  }
}

let database: DatabaseHandle;
const config = testConfig();
let anonymous: Caller;
let customer: Caller;
let admin: Caller;

beforeAll(async () => {
  database = await createTestDatabase();
  const customerId = await insertUser(database.db, 'customer@example.com');
  const adminId = await insertUser(database.db, 'admin@example.com', { admin: true });
  anonymous = callerFor(database, config, null).caller;
  customer = callerFor(database, config, { id: customerId, email: 'customer@example.com' }).caller;
  admin = callerFor(database, config, { id: adminId, email: 'admin@example.com' }).caller;
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
    const id = await insertUser(database.db, 'former-admin@example.com', { admin: true });
    const caller = callerFor(database, config, { id, email: 'former-admin@example.com' }).caller;
    await expect(caller.admin.dashboard.overview()).resolves.toBeDefined();
    await database.db.updateTable('customers').set({ is_admin: false }).where('id', '=', id).execute();
    await expect(caller.admin.dashboard.overview()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
