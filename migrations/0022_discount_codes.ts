import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Discount codes (docs/adr/0031-discount-rules-and-rounding.md): what a code gives and to what,
// when and how often it may be used; each use is a row naming the order and the account, so a
// code's count and "once per customer" are kept in the order's own transaction, and a cancelled
// unpaid order gives its use back. An order keeps the code and the discount it was given.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE discount_codes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      code text NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{1,40}$'),
      kind text NOT NULL CHECK (kind IN ('percent', 'amount', 'free_shipping')),
      -- Percent: 1 to 100; amount: cents off; free shipping: none.
      value integer CHECK (
        (kind = 'percent' AND value BETWEEN 1 AND 100) OR (kind = 'amount' AND value > 0) OR (kind = 'free_shipping' AND value IS NULL)
      ),
      applies_to text NOT NULL DEFAULT 'order' CHECK (applies_to IN ('order', 'categories', 'products')),
      category_ids uuid[] NOT NULL DEFAULT '{}',
      product_ids uuid[] NOT NULL DEFAULT '{}',
      min_subtotal_cents integer CHECK (min_subtotal_cents >= 0),
      starts_at timestamptz,
      ends_at timestamptz,
      usage_limit integer CHECK (usage_limit >= 1),
      used_count integer NOT NULL DEFAULT 0 CHECK (used_count >= 0),
      once_per_customer boolean NOT NULL DEFAULT false,
      applies_to_club boolean NOT NULL DEFAULT false,
      club_cycles integer CHECK (club_cycles >= 1),
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at),
      CHECK (usage_limit IS NULL OR used_count <= usage_limit)
    );
    -- Matched without regard to case.
    CREATE UNIQUE INDEX discount_codes_code_key ON discount_codes (lower(code));
    CREATE INDEX discount_codes_newest_idx ON discount_codes (created_at DESC, id);

    CREATE TABLE discount_uses (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      discount_code_id uuid NOT NULL REFERENCES discount_codes (id) ON DELETE CASCADE,
      order_id uuid NOT NULL UNIQUE REFERENCES orders (id) ON DELETE CASCADE,
      customer_id uuid REFERENCES customers (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX discount_uses_code_customer_idx ON discount_uses (discount_code_id, customer_id);

    ALTER TABLE orders
      ADD COLUMN discount_code text,
      ADD COLUMN discount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (discount >= 0);
    ALTER TABLE order_items ADD COLUMN discount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (discount >= 0);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE order_items DROP COLUMN discount;
    ALTER TABLE orders DROP COLUMN discount, DROP COLUMN discount_code;
    DROP TABLE discount_uses;
    DROP TABLE discount_codes;
  `.execute(db);
}
