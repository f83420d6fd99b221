import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import * as initial from '../../../migrations/0001_initial';
import * as checkout from '../../../migrations/0002_checkout';
import * as subscriptions from '../../../migrations/0003_subscriptions';
import * as subscriptionBilling from '../../../migrations/0004_subscription_billing';
import * as imageVariants from '../../../migrations/0005_image_variants';
import * as catalogChanges from '../../../migrations/0006_catalog_changes';
import * as rateLimitCounters from '../../../migrations/0007_rate_limit_counters';
import * as listPagingIndexes from '../../../migrations/0008_list_paging_indexes';
import * as orderStats from '../../../migrations/0009_order_stats';
import * as pendingPasswords from '../../../migrations/0010_pending_passwords';
import * as emailReplyTo from '../../../migrations/0011_email_reply_to';
import * as trackingAnnounced from '../../../migrations/0012_tracking_announced';
import * as noPasswordsInLinks from '../../../migrations/0013_no_passwords_in_links';
import * as accountEmailBudget from '../../../migrations/0014_account_email_budget';
import * as confirmationLinksTiedToBrowser from '../../../migrations/0015_confirmation_links_tied_to_browser';
import * as ownAccountEmails from '../../../migrations/0016_own_account_emails';
import * as pagesFollowPlansAndSettings from '../../../migrations/0017_pages_follow_plans_and_settings';
import * as erasureAndRetention from '../../../migrations/0018_erasure_and_retention';
import * as guestCheckout from '../../../migrations/0019_guest_checkout';
import * as coloursAndVariants from '../../../migrations/0020_colours_and_variants';
import * as productSearch from '../../../migrations/0021_product_search';
import * as discountCodes from '../../../migrations/0022_discount_codes';
import * as analyticsRollups from '../../../migrations/0023_analytics_rollups';
import * as discountsInSalesDays from '../../../migrations/0024_discounts_in_sales_days';
import * as fulfilment from '../../../migrations/0025_fulfilment';
import type { Db } from './database';

// A static list: Kysely's FileMigrationProvider cannot import .ts files under Vitest.
// Add each new migration here, in order.
const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_checkout': checkout,
  '0003_subscriptions': subscriptions,
  '0004_subscription_billing': subscriptionBilling,
  '0005_image_variants': imageVariants,
  '0006_catalog_changes': catalogChanges,
  '0007_rate_limit_counters': rateLimitCounters,
  '0008_list_paging_indexes': listPagingIndexes,
  '0009_order_stats': orderStats,
  '0010_pending_passwords': pendingPasswords,
  '0011_email_reply_to': emailReplyTo,
  '0012_tracking_announced': trackingAnnounced,
  '0013_no_passwords_in_links': noPasswordsInLinks,
  '0014_account_email_budget': accountEmailBudget,
  '0015_confirmation_links_tied_to_browser': confirmationLinksTiedToBrowser,
  '0016_own_account_emails': ownAccountEmails,
  '0017_pages_follow_plans_and_settings': pagesFollowPlansAndSettings,
  '0018_erasure_and_retention': erasureAndRetention,
  '0019_guest_checkout': guestCheckout,
  '0020_colours_and_variants': coloursAndVariants,
  '0021_product_search': productSearch,
  '0022_discount_codes': discountCodes,
  '0023_analytics_rollups': analyticsRollups,
  '0024_discounts_in_sales_days': discountsInSalesDays,
  '0025_fulfilment': fulfilment,
};

/** Every migration, in order; tests undo and redo some through Kysely's Migrator. */
export const migrationProvider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/**
 * Whether every migration has run, in one query. Kysely's migrator asks some ten questions (its
 * tables, its lock) before it finds nothing to do; on the embedded database, just started, that
 * took most of a second of every start.
 */
async function isUpToDate(db: Db): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((row) => row.name));
    return Object.keys(migrations).every((name) => applied.has(name));
  } catch {
    return false; // a new database: no migration table yet
  }
}

/** The migrations this database has run, in order. */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name);
}

/** Migrations named that this code does not have (a backup made by a newer version, say). */
export const unknownMigrations = (names: readonly string[]) => names.filter((name) => !(name in migrations));

/**
 * Builds the schema up to the last of `names` (every one known here), as a backup made after them
 * expects it; later migrations then run on the restored rows as they would have on the store.
 */
export async function migrateUpTo(db: Db, names: readonly string[]): Promise<void> {
  const last = [...names].sort().at(-1);
  if (!last || unknownMigrations(names).length > 0) throw new Error(`Unknown migrations: ${unknownMigrations(names).join(', ')}`);
  const { error, results = [] } = await new Migrator({ db, provider: migrationProvider }).migrateTo(last);
  if (error) {
    const failed = results.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, {
      cause: error,
    });
  }
}

/** Brings the schema up to date; throws with the failing migration's name and error. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  if (await isUpToDate(db)) return [];
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error) {
    const cause = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`, { cause: error });
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
