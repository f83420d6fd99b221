import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Print-on-demand fulfilment (docs/adr/0035): which provider prints paid orders and how (settings),
// the provider's blank and variants our products map to, the print files each order line snapshots,
// where an order stands at the provider, its packages, and the queue of sending jobs. A job is
// queued by a trigger in the very transaction that makes an order paid, whoever makes it paid, so
// a paid order is never left unsent and never queued twice.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE store_settings
      -- Written at start-up from the configuration: Printful when its keys are set.
      ADD COLUMN fulfilment_provider text NOT NULL DEFAULT 'self' CHECK (fulfilment_provider IN ('self', 'printful')),
      ADD COLUMN fulfilment_mode text NOT NULL DEFAULT 'review' CHECK (fulfilment_mode IN ('automatic', 'review')),
      ADD COLUMN fulfilment_shipping text NOT NULL DEFAULT 'STANDARD' CHECK (fulfilment_shipping ~ '^[A-Z0-9_]{1,40}$'),
      -- Signs the expiring addresses of print files given to the provider.
      ADD COLUMN file_link_secret text NOT NULL DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');

    ALTER TABLE products ADD COLUMN printful_product_id integer CHECK (printful_product_id > 0);
    ALTER TABLE product_variants ADD COLUMN printful_variant_id integer CHECK (printful_variant_id > 0);

    -- What each line prints, as it was when the order was placed: a later artwork change prints nothing old.
    ALTER TABLE order_items ADD COLUMN front_print_url text, ADD COLUMN back_print_url text;
    UPDATE order_items i SET front_print_url = p.front_art_url, back_print_url = p.back_art_url FROM products p WHERE p.id = i.product_id;

    ALTER TABLE orders
      ADD COLUMN fulfilment_state text CHECK (fulfilment_state IN ('queued', 'draft', 'in_production', 'shipped', 'needs_attention', 'cancelled')),
      ADD COLUMN fulfilment_reason text,
      ADD COLUMN provider_order_id text,
      ADD COLUMN provider_order_url text,
      ADD COLUMN fulfilment_cost numeric(10, 2);
    CREATE INDEX orders_fulfilment_state_idx ON orders (fulfilment_state, created_at DESC) WHERE fulfilment_state IS NOT NULL;

    CREATE TABLE order_shipments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      provider_shipment_id text NOT NULL,
      carrier text NOT NULL,
      tracking_number text NOT NULL,
      tracking_url text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT order_shipments_provider_key UNIQUE (order_id, provider_shipment_id)
    );

    -- One job per order: 'send' makes the draft at the provider, 'confirm' sends it to production.
    CREATE TABLE fulfilment_jobs (
      order_id uuid PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
      step text NOT NULL DEFAULT 'send' CHECK (step IN ('send', 'confirm')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'held')),
      attempts integer NOT NULL DEFAULT 0,
      run_after timestamptz NOT NULL DEFAULT now(),
      locked_until timestamptz,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX fulfilment_jobs_due_idx ON fulfilment_jobs (run_after) WHERE status = 'pending';

    ALTER TABLE order_events DROP CONSTRAINT order_events_kind_check;
    ALTER TABLE order_events ADD CONSTRAINT order_events_kind_check CHECK (kind IN (
      'placed', 'paid', 'payment_failed', 'refunded', 'pending', 'processing', 'shipped', 'delivered', 'cancelled',
      'sent_to_printer', 'confirmed_for_printing', 'printer_needs_attention', 'printer_cancelled'
    ));

    -- An order becoming paid (inserted paid, or changed to paid) while Printful prints the store's
    -- orders is queued for sending, in the same transaction; a cancelled one is not.
    CREATE FUNCTION queue_fulfilment() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.payment_status = 'paid' AND NEW.status <> 'cancelled'
         AND (TG_OP = 'INSERT' OR OLD.payment_status IS DISTINCT FROM 'paid')
         AND NEW.fulfilment_state IS NULL
         AND (SELECT fulfilment_provider FROM store_settings LIMIT 1) = 'printful' THEN
        INSERT INTO fulfilment_jobs (order_id) VALUES (NEW.id) ON CONFLICT (order_id) DO NOTHING;
        UPDATE orders SET fulfilment_state = 'queued' WHERE id = NEW.id AND fulfilment_state IS NULL;
      END IF;
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER orders_queue_fulfilment AFTER INSERT OR UPDATE OF payment_status ON orders
      FOR EACH ROW EXECUTE FUNCTION queue_fulfilment();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER orders_queue_fulfilment ON orders;
    DROP FUNCTION queue_fulfilment();
    DELETE FROM order_events WHERE kind IN ('sent_to_printer', 'confirmed_for_printing', 'printer_needs_attention', 'printer_cancelled');
    ALTER TABLE order_events DROP CONSTRAINT order_events_kind_check;
    ALTER TABLE order_events ADD CONSTRAINT order_events_kind_check CHECK (kind IN (
      'placed', 'paid', 'payment_failed', 'refunded', 'pending', 'processing', 'shipped', 'delivered', 'cancelled'
    ));
    DROP TABLE fulfilment_jobs, order_shipments;
    ALTER TABLE orders DROP COLUMN fulfilment_state, DROP COLUMN fulfilment_reason, DROP COLUMN provider_order_id,
      DROP COLUMN provider_order_url, DROP COLUMN fulfilment_cost;
    ALTER TABLE order_items DROP COLUMN front_print_url, DROP COLUMN back_print_url;
    ALTER TABLE product_variants DROP COLUMN printful_variant_id;
    ALTER TABLE products DROP COLUMN printful_product_id;
    ALTER TABLE store_settings DROP COLUMN fulfilment_provider, DROP COLUMN fulfilment_mode, DROP COLUMN fulfilment_shipping,
      DROP COLUMN file_link_secret;
  `.execute(db);
}
