import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureInitialAdmin } from '../../src/server/auth/admin';
import { verifyPassword } from '../../src/server/auth/password';
import { countRows } from '../../src/server/db/count';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { createTestDatabase } from '../support/db';

let database: DatabaseHandle & { url?: string };
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(() => database.close());

const adminRow = (email: string) =>
  database.db
    .selectFrom('users')
    .innerJoin('customers', 'customers.id', 'users.id')
    .select(['users.password_hash', 'users.email_confirmed_at', 'customers.is_admin'])
    .where('users.email', '=', email)
    .executeTakeFirst();

describe('the first start', () => {
  it('creates the admin named by ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const created = await ensureInitialAdmin(database.db, {
      initialAdmin: { email: 'owner@tees.example', password: 'owner-secret' },
      storeEmail: 'support@tees.example',
    });
    expect(created).toMatchObject({ email: 'owner@tees.example', created: true });
    const row = await adminRow('owner@tees.example');
    expect(row?.is_admin).toBe(true);
    expect(row?.email_confirmed_at).not.toBeNull();
    expect(await verifyPassword(row!.password_hash, 'owner-secret')).toBe(true);
  });

  it('otherwise creates admin@<store domain> with a generated password that works', async () => {
    const created = await ensureInitialAdmin(database.db, { initialAdmin: undefined, storeEmail: 'support@tees.example' });
    expect(created?.email).toBe('admin@tees.example');
    expect(created?.password).toMatch(/^[a-z2-7]{16,}$/);
    const row = await adminRow('admin@tees.example');
    expect(await verifyPassword(row!.password_hash, created!.password!)).toBe(true);
  });

  it('does nothing once an admin exists', async () => {
    await ensureInitialAdmin(database.db, { initialAdmin: undefined, storeEmail: 'support@tees.example' });
    expect(
      await ensureInitialAdmin(database.db, { initialAdmin: { email: 'late@tees.example', password: 'late-secret' }, storeEmail: 'x@y.z' }),
    ).toBeNull();
    expect(await adminRow('late@tees.example')).toBeUndefined();
  });

  it('makes one admin when several processes start at once, and the password it prints works', async () => {
    // A second connection pool stands for the second process; PGlite belongs to one process.
    const second = database.url ? await openDatabase({ databaseUrl: database.url }) : undefined;
    try {
      const config = { initialAdmin: undefined, storeEmail: 'support@tees.example' };
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => ensureInitialAdmin((i % 2 === 1 && second ? second : database).db, config)),
      );
      const created = results.filter((result) => result !== null);
      expect(created).toHaveLength(1);
      expect(await countRows(database.db.selectFrom('customers').where('is_admin', '=', true))).toBe(1);
      const row = await adminRow('admin@tees.example');
      expect(await verifyPassword(row!.password_hash, created[0]!.password!)).toBe(true);
    } finally {
      await second?.close();
    }
  });
});
