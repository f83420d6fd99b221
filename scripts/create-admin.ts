import { parseArgs } from 'node:util';
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../src/shared/constants';
import { createOrPromoteAdmin } from '../src/server/auth/admin';
import { migrateToLatest } from '../src/server/db/migrate';
import { runWithDatabase } from './run-with-database';

// npm run create-admin -- --email someone@example.com [--password secret]
// Creates an admin account, or promotes an existing one. Without --password a new password is
// generated and printed (for an existing account it replaces the old one: a way back in).

const USAGE = `Usage: npm run create-admin -- --email <address> [--password <password>]

  --email      the admin's email address (created if no account has it, promoted otherwise)
  --password   at least ${MIN_PASSWORD_LENGTH} characters; omitted, a random one is generated and shown`;

class UsageError extends Error {}

function readArgs(): { email: string; password: string | undefined } {
  let values: { email?: string | undefined; password?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) throw new UsageError('');
  const email = values.email?.trim();
  if (!email || !z.email().safeParse(email).success) throw new UsageError(email ? `Not an email address: ${email}` : 'Missing --email');
  if (values.password !== undefined && values.password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }
  return { email, password: values.password };
}

function readArgsOrExplain(): ReturnType<typeof readArgs> | null {
  try {
    return readArgs();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) console.error(`${error.message}\n`);
    console.error(USAGE);
    return null;
  }
}

const args = readArgsOrExplain();
if (!args) process.exit(2);

runWithDatabase(async ({ db }) => {
  await migrateToLatest(db);
  const admin = await createOrPromoteAdmin(db, args.email, { password: args.password, generatePassword: !args.password });
  if (admin.created) {
    console.log(`Created admin ${admin.email} with password: ${admin.password ?? ''}`);
  } else {
    console.log(`Promoted ${admin.email} to admin`);
    if (admin.password) console.log(`New password: ${admin.password} (the old one no longer works; existing sessions were signed out)`);
  }
  return 0;
});
