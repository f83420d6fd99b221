import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/auth/password';
import { openDatabase } from '../../src/server/db/database';

// The script runs as its own process against an embedded database in a temporary DATA_DIR
// (PGlite even when the rest of the suite uses PostgreSQL: the busy-database case is PGlite's).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-admin-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function createAdmin(...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile('npx', ['tsx', 'scripts/create-admin.ts', ...args], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

async function readAccount(email: string) {
  const database = await openDatabase({ dataDir });
  try {
    return await database.db
      .selectFrom('users')
      .innerJoin('customers', 'customers.id', 'users.id')
      .select(['users.password_hash', 'users.email_confirmed_at', 'customers.is_admin'])
      .where(sql<string>`lower(users.email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  } finally {
    await database.close();
  }
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('npm run create-admin', () => {
  let firstPassword = '';

  it('creates a confirmed admin with a generated password it prints', async () => {
    const run = await createAdmin('--email', 'a@example.com');
    expect(run.code, run.stderr).toBe(0);
    const match = /Created admin a@example\.com with password: (\S+)/.exec(run.stdout);
    expect(match, run.stdout).not.toBeNull();
    firstPassword = match![1]!;
    const account = await readAccount('a@example.com');
    expect(account?.is_admin).toBe(true);
    expect(account?.email_confirmed_at).not.toBeNull();
    expect(await verifyPassword(account!.password_hash, firstPassword)).toBe(true);
  }, 90_000);

  it('promotes the same account again and sets the given password', async () => {
    const run = await createAdmin('--email', 'A@Example.com', '--password', 'another-secret');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Promoted a@example.com to admin');
    expect(run.stdout).toContain('another-secret');
    const account = await readAccount('a@example.com');
    expect(account?.is_admin).toBe(true);
    expect(await verifyPassword(account!.password_hash, 'another-secret')).toBe(true);
    expect(await verifyPassword(account!.password_hash, firstPassword)).toBe(false);
  }, 90_000);

  it('prints usage and exits 2 without a valid --email', async () => {
    const missing = await createAdmin();
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Usage: npm run create-admin');
    const invalid = await createAdmin('--email', 'not-an-email');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('Not an email address');
  }, 90_000);

  it('exits non-zero with a clear message while another process holds the database', async () => {
    const held = await openDatabase({ dataDir });
    try {
      const run = await createAdmin('--email', 'b@example.com');
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('in use by another process');
    } finally {
      await held.close();
    }
  }, 90_000);
});
