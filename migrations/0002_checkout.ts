import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Checkout: the store's checkout settings, orders placed and paid through a payment provider,
// each order's history, and the payment provider's notifications (each processed once).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One row: what checkout charges and says. Defaults keep the spec's "Shipping FREE", no tax.
    CREATE TABLE store_settings (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      flat_shipping_rate numeric(10, 2) NOT NULL DEFAULT 0 CHECK (flat_shipping_rate >= 0),
      -- Orders whose subtotal reaches this ship free; null: no threshold.
      free_shipping_threshold numeric(10, 2) CHECK (free_shipping_threshold >= 0),
      tax_rate_percent numeric(5, 2) NOT NULL DEFAULT 0 CHECK (tax_rate_percent >= 0 AND tax_rate_percent <= 100),
      -- Shown on the confirmation page and email of orders paid by hand (bank transfer details).
      payment_instructions text NOT NULL DEFAULT '',
      -- A carrier's tracking page; {number} stands for the tracking number.
      tracking_url_template text NOT NULL DEFAULT 'https://parcelsapp.com/en/tracking/{number}',
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO store_settings DEFAULT VALUES;

    ALTER TABLE orders
      ADD COLUMN payment_provider text NOT NULL DEFAULT 'manual' CHECK (payment_provider IN ('manual', 'stripe')),
      -- Sent by the client with a cart submission: retries and double clicks find the same order.
      ADD COLUMN idempotency_key text,
      ADD COLUMN checkout_session_id text UNIQUE,
      ADD COLUMN checkout_url text,
      ADD COLUMN payment_intent_id text UNIQUE,
      ADD COLUMN paid_at timestamptz,
      ADD CONSTRAINT orders_customer_idempotency_key UNIQUE (customer_id, idempotency_key);
    CREATE INDEX orders_customer_newest_idx ON orders (customer_id, created_at DESC, id);
    CREATE INDEX orders_paid_idx ON orders (created_at) WHERE payment_status = 'paid';

    -- What happened to an order, in order: the customer's status timeline.
    CREATE TABLE order_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN (
        'placed', 'paid', 'payment_failed', 'refunded', 'pending', 'processing', 'shipped', 'delivered', 'cancelled'
      )),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX order_events_order_idx ON order_events (order_id, created_at);
    -- Orders from before this migration start their timeline when they were placed.
    INSERT INTO order_events (order_id, kind, created_at) SELECT id, 'placed', created_at FROM orders;
    UPDATE orders SET paid_at = created_at WHERE payment_status IN ('paid', 'refunded');

    -- Every notification a payment provider sent, by its own id: a second delivery changes nothing.
    CREATE TABLE payment_events (
      provider text NOT NULL,
      event_id text NOT NULL,
      type text NOT NULL,
      order_id uuid REFERENCES orders (id) ON DELETE SET NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, event_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE payment_events, order_events, store_settings;
    ALTER TABLE orders
      DROP CONSTRAINT orders_customer_idempotency_key,
      DROP COLUMN payment_provider, DROP COLUMN idempotency_key, DROP COLUMN checkout_session_id,
      DROP COLUMN checkout_url, DROP COLUMN payment_intent_id, DROP COLUMN paid_at;
  `.execute(db);
}
