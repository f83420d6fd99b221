import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// An erased account (docs/adr/0025) leaves its orders and memberships behind for the shop's
// accounts, pointing at no one: the customer link becomes optional and is cleared when the
// customer row goes. And the purge of old rows (src/server/retention.ts) finds its rows by index.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE orders
      ALTER COLUMN customer_id DROP NOT NULL,
      DROP CONSTRAINT orders_customer_id_fkey,
      ADD CONSTRAINT orders_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL;
    ALTER TABLE subscriptions
      ALTER COLUMN customer_id DROP NOT NULL,
      DROP CONSTRAINT subscriptions_customer_id_fkey,
      ADD CONSTRAINT subscriptions_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL;
    -- Only a cancelled membership can lose its member: one still live always has one.
    ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_live_has_member CHECK (customer_id IS NOT NULL OR status = 'cancelled');

    CREATE INDEX email_queue_sent_at_idx ON email_queue (sent_at) WHERE status = 'sent';
    CREATE INDEX auth_tokens_expires_at_idx ON auth_tokens (expires_at);
  `.execute(db);
}

// Fails while an erased customer's orders or memberships exist: they have no customer to point at.
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX auth_tokens_expires_at_idx;
    DROP INDEX email_queue_sent_at_idx;
    ALTER TABLE subscriptions
      DROP CONSTRAINT subscriptions_live_has_member,
      DROP CONSTRAINT subscriptions_customer_id_fkey,
      ADD CONSTRAINT subscriptions_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
      ALTER COLUMN customer_id SET NOT NULL;
    ALTER TABLE orders
      DROP CONSTRAINT orders_customer_id_fkey,
      ADD CONSTRAINT orders_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE RESTRICT,
      ALTER COLUMN customer_id SET NOT NULL;
  `.execute(db);
}
