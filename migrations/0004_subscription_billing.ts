import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Billing the club: card memberships through Stripe Billing (a recurring Price per plan, the
// member's Stripe subscription, unpaid invoices and their retries) and reminders for cycle
// orders paid by hand.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The Stripe Price new members of a plan pay, with the price and interval it was made for:
    -- a change of either makes a new Price, and existing members keep theirs.
    ALTER TABLE subscription_plans
      ADD COLUMN stripe_product_id text,
      ADD COLUMN stripe_price_id text,
      ADD COLUMN stripe_price_amount numeric(10, 2),
      ADD COLUMN stripe_price_interval text;

    -- incomplete: a card join waiting for its Checkout to be paid; not a member yet.
    ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
    ALTER TABLE subscriptions
      ADD CONSTRAINT subscriptions_status_check CHECK (status IN ('incomplete', 'active', 'paused', 'past_due', 'cancelled')),
      ADD COLUMN stripe_subscription_id text UNIQUE,
      ADD COLUMN stripe_customer_id text,
      ADD COLUMN checkout_session_id text UNIQUE,
      ADD COLUMN checkout_url text,
      -- The invoice that made it past due, the page where the member can pay it, and the
      -- store's retries of it so far (the last one on unpaid_retried_on).
      ADD COLUMN unpaid_invoice_id text,
      ADD COLUMN unpaid_invoice_url text,
      ADD COLUMN unpaid_since date,
      ADD COLUMN unpaid_retries smallint NOT NULL DEFAULT 0,
      ADD COLUMN unpaid_retried_on date;
    CREATE INDEX subscriptions_unpaid_idx ON subscriptions (unpaid_retried_on) WHERE status = 'past_due';
    -- The admin's Subscribers list: newest first, filtered by plan or status.
    CREATE INDEX subscriptions_newest_idx ON subscriptions (created_at DESC, id DESC);
    CREATE INDEX subscriptions_plan_newest_idx ON subscriptions (plan_id, created_at DESC, id DESC);
    CREATE INDEX subscriptions_status_newest_idx ON subscriptions (status, created_at DESC, id DESC);

    -- Reminders sent for a cycle order still unpaid (paid by hand), the last one on reminded_on.
    ALTER TABLE subscription_cycles
      ADD COLUMN reminders_sent smallint NOT NULL DEFAULT 0,
      ADD COLUMN reminded_on date;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX subscriptions_newest_idx, subscriptions_plan_newest_idx, subscriptions_status_newest_idx, subscriptions_unpaid_idx;
    ALTER TABLE subscription_cycles DROP COLUMN reminders_sent, DROP COLUMN reminded_on;
    DELETE FROM subscriptions WHERE status = 'incomplete';
    ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
    ALTER TABLE subscriptions
      ADD CONSTRAINT subscriptions_status_check CHECK (status IN ('active', 'paused', 'past_due', 'cancelled')),
      DROP COLUMN stripe_subscription_id,
      DROP COLUMN stripe_customer_id,
      DROP COLUMN checkout_session_id,
      DROP COLUMN checkout_url,
      DROP COLUMN unpaid_invoice_id,
      DROP COLUMN unpaid_invoice_url,
      DROP COLUMN unpaid_since,
      DROP COLUMN unpaid_retries,
      DROP COLUMN unpaid_retried_on;
    ALTER TABLE subscription_plans
      DROP COLUMN stripe_product_id,
      DROP COLUMN stripe_price_id,
      DROP COLUMN stripe_price_amount,
      DROP COLUMN stripe_price_interval;
  `.execute(db);
}
