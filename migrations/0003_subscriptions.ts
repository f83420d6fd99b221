import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// The subscription club: members of a plan, each renewed cycle by cycle into one order.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE subscriptions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
      plan_id uuid NOT NULL REFERENCES subscription_plans (id),
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'past_due', 'cancelled')),
      size text NOT NULL CHECK (size IN ('XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '4XL')),
      -- The member's chosen categories; empty: every category.
      category_ids uuid[] NOT NULL DEFAULT '{}',
      shipping_address jsonb NOT NULL,
      payment_provider text NOT NULL DEFAULT 'manual' CHECK (payment_provider IN ('manual', 'stripe')),
      -- What this member pays per cycle and how often: a later change of the plan does not touch them.
      price numeric(10, 2) NOT NULL CHECK (price >= 0),
      billing_interval text NOT NULL CHECK (billing_interval IN ('monthly', 'quarterly', 'yearly')),
      -- The day of the month cycles fall on (31 falls on the last day of shorter months).
      anchor_day smallint NOT NULL CHECK (anchor_day BETWEEN 1 AND 31),
      -- The start of the next cycle: its order is made on that day.
      next_cycle_on date NOT NULL,
      skip_next boolean NOT NULL DEFAULT false,
      -- While paused: the day it resumes, or null until the member resumes it.
      paused_until date,
      -- Cancelled at the end of the paid period: no cycle starts on or after this day.
      cancel_at date,
      cancel_reason text,
      cancelled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- One live membership of a plan per customer.
    CREATE UNIQUE INDEX subscriptions_one_live_per_plan ON subscriptions (customer_id, plan_id) WHERE status <> 'cancelled';
    CREATE INDEX subscriptions_due_idx ON subscriptions (next_cycle_on) WHERE status IN ('active', 'paused');

    -- Every cycle a subscription went through, once: ordered (with its order) or skipped.
    CREATE TABLE subscription_cycles (
      subscription_id uuid NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
      cycle_start date NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('ordered', 'skipped')),
      order_id uuid UNIQUE REFERENCES orders (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (subscription_id, cycle_start)
    );

    ALTER TABLE orders ADD COLUMN subscription_id uuid REFERENCES subscriptions (id) ON DELETE SET NULL;
    CREATE INDEX orders_subscription_idx ON orders (subscription_id, created_at DESC) WHERE subscription_id IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE orders DROP COLUMN subscription_id;
    DROP TABLE subscription_cycles, subscriptions;
  `.execute(db);
}
