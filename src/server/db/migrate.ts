import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import * as initial from '../../../migrations/0001_initial';
import * as checkout from '../../../migrations/0002_checkout';
import * as subscriptions from '../../../migrations/0003_subscriptions';
import * as subscriptionBilling from '../../../migrations/0004_subscription_billing';
import type { Db } from './database';

// A static list: Kysely's FileMigrationProvider cannot import .ts files under Vitest.
// Add each new migration here, in order.
const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_checkout': checkout,
  '0003_subscriptions': subscriptions,
  '0004_subscription_billing': subscriptionBilling,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Brings the schema up to date; throws with the failing migration's name and error. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error) {
    const cause = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`, { cause: error });
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
