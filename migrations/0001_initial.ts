import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL CHECK (email = btrim(email) AND email <> ''),
      password_hash text NOT NULL,
      email_confirmed_at timestamptz,
      last_sign_in_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));
    CREATE INDEX users_created_at_idx ON users (created_at DESC);

    -- Lucia's design: the token is "<id>.<secret>"; only a SHA-256 of the secret is kept.
    CREATE TABLE sessions (
      id text PRIMARY KEY,
      secret_hash bytea NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX sessions_user_id_idx ON sessions (user_id);
    CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

    -- Single-use tokens sent by email; only a SHA-256 of the token is kept.
    CREATE TABLE auth_tokens (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('password_reset', 'email_confirmation')),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX auth_tokens_user_id_idx ON auth_tokens (user_id, purpose);

    CREATE TABLE customers (
      id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      email text NOT NULL,
      first_name text NOT NULL DEFAULT '',
      last_name text NOT NULL DEFAULT '',
      phone text NOT NULL DEFAULT '',
      is_admin boolean NOT NULL DEFAULT false,
      shipping_address jsonb NOT NULL DEFAULT '{"street": "", "city": "", "state": "", "zip": "", "country": "USA"}',
      billing_address jsonb NOT NULL DEFAULT '{"street": "", "city": "", "state": "", "zip": "", "country": "USA"}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (jsonb_typeof(shipping_address) = 'object'),
      CHECK (jsonb_typeof(billing_address) = 'object')
    );
    CREATE UNIQUE INDEX customers_email_key ON customers (lower(email));
    CREATE INDEX customers_admin_idx ON customers (id) WHERE is_admin;

    CREATE TABLE categories (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
      name text NOT NULL CHECK (btrim(name) <> ''),
      description text NOT NULL,
      image_url text NOT NULL,
      is_active boolean NOT NULL DEFAULT true,
      -- Deferred so that two rows can swap places inside one transaction.
      sort_order integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT categories_sort_order_key UNIQUE (sort_order) DEFERRABLE INITIALLY DEFERRED
    );
    CREATE INDEX categories_active_sort_idx ON categories (sort_order) WHERE is_active;

    CREATE TABLE products (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      sku_number text NOT NULL UNIQUE CHECK (btrim(sku_number) <> ''),
      slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
      name text NOT NULL CHECK (btrim(name) <> ''),
      description text NOT NULL,
      price numeric(10, 2) NOT NULL CHECK (price >= 0),
      image_url text,
      front_art_url text,
      back_art_url text,
      chest_position text NOT NULL DEFAULT 'full_chest' CHECK (chest_position IN ('left_chest', 'full_chest')),
      front_mockup_url text,
      back_mockup_url text,
      default_mockup_side text NOT NULL DEFAULT 'front' CHECK (default_mockup_side IN ('front', 'back')),
      available_sizes text[] NOT NULL DEFAULT ARRAY['S', 'M', 'L', 'XL', '2XL', '3XL', '4XL']
        CHECK (available_sizes <@ ARRAY['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '4XL']),
      tags text[] NOT NULL DEFAULT '{}',
      is_featured boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      category_id uuid NOT NULL REFERENCES categories (id) ON DELETE RESTRICT,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT products_artwork_required CHECK (front_art_url IS NOT NULL OR back_art_url IS NOT NULL)
    );
    -- Storefront lists: active products, by newest or by price, optionally within one category.
    CREATE INDEX products_active_newest_idx ON products (created_at DESC, id) WHERE is_active;
    CREATE INDEX products_active_price_idx ON products (price, id) WHERE is_active;
    CREATE INDEX products_active_category_newest_idx ON products (category_id, created_at DESC, id) WHERE is_active;
    CREATE INDEX products_active_category_price_idx ON products (category_id, price, id) WHERE is_active;
    CREATE INDEX products_featured_idx ON products (created_at DESC) WHERE is_active AND is_featured;
    -- Admin list: every product, newest first, optionally within one category.
    CREATE INDEX products_category_newest_idx ON products (category_id, created_at DESC);
    CREATE INDEX products_newest_idx ON products (created_at DESC);

    CREATE TABLE subscription_plans (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (btrim(name) <> ''),
      slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
      description text NOT NULL DEFAULT '',
      price numeric(10, 2) NOT NULL CHECK (price >= 0),
      billing_interval text NOT NULL DEFAULT 'monthly' CHECK (billing_interval IN ('monthly', 'quarterly', 'yearly')),
      category_limit integer NOT NULL DEFAULT 1 CHECK (category_limit >= 0),
      is_active boolean NOT NULL DEFAULT true,
      features text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX subscription_plans_active_price_idx ON subscription_plans (price) WHERE is_active;

    CREATE SEQUENCE order_number_seq START 1001;
    CREATE TABLE orders (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      order_number text NOT NULL UNIQUE DEFAULT ('TL-' || nextval('order_number_seq')),
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE RESTRICT,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
      payment_status text NOT NULL DEFAULT 'pending' CHECK (payment_status IN ('paid', 'pending', 'failed', 'refunded')),
      subtotal numeric(10, 2) NOT NULL CHECK (subtotal >= 0),
      tax numeric(10, 2) NOT NULL DEFAULT 0 CHECK (tax >= 0),
      shipping_cost numeric(10, 2) NOT NULL DEFAULT 0 CHECK (shipping_cost >= 0),
      total numeric(10, 2) NOT NULL CHECK (total >= 0),
      tracking_number text,
      shipping_address jsonb NOT NULL CHECK (jsonb_typeof(shipping_address) = 'object'),
      notes text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX orders_newest_idx ON orders (created_at DESC, id);
    CREATE INDEX orders_status_newest_idx ON orders (status, created_at DESC, id);
    CREATE INDEX orders_customer_idx ON orders (customer_id, created_at DESC);

    CREATE TABLE order_items (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      product_id uuid REFERENCES products (id) ON DELETE SET NULL,
      product_name text NOT NULL,
      product_image text,
      size text NOT NULL CHECK (size IN ('XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '4XL')),
      quantity integer NOT NULL CHECK (quantity > 0),
      unit_price numeric(10, 2) NOT NULL CHECK (unit_price >= 0),
      total_price numeric(10, 2) NOT NULL CHECK (total_price >= 0),
      print_status text NOT NULL DEFAULT 'pending' CHECK (print_status IN ('pending', 'printing', 'ready')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX order_items_order_idx ON order_items (order_id);
    CREATE INDEX order_items_product_idx ON order_items (product_id);
    CREATE INDEX order_items_print_queue_idx ON order_items (order_id) WHERE print_status IN ('pending', 'printing');

    CREATE TABLE contact_submissions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (btrim(name) <> ''),
      email text NOT NULL CHECK (btrim(email) <> ''),
      subject text NOT NULL CHECK (btrim(subject) <> ''),
      message text NOT NULL CHECK (btrim(message) <> ''),
      status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'read', 'resolved')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX contact_submissions_newest_idx ON contact_submissions (created_at DESC);
    CREATE INDEX contact_submissions_status_newest_idx ON contact_submissions (status, created_at DESC);

    CREATE TABLE artwork_library (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (btrim(name) <> ''),
      description text,
      artwork_url text NOT NULL,
      tags text[],
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX artwork_library_newest_idx ON artwork_library (created_at DESC);
    CREATE INDEX artwork_library_tags_idx ON artwork_library USING gin (tags);

    CREATE TABLE mockup_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (btrim(name) <> ''),
      front_template_url text NOT NULL,
      back_template_url text NOT NULL,
      is_default boolean NOT NULL DEFAULT false,
      front_art_position jsonb NOT NULL DEFAULT '{"x": 50, "y": 30, "width": 30, "height": 30, "rotation": 0}',
      back_art_position jsonb NOT NULL DEFAULT '{"x": 50, "y": 30, "width": 40, "height": 40, "rotation": 0}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX mockup_templates_one_default ON mockup_templates (is_default) WHERE is_default;

    CREATE TABLE email_queue (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      to_email text NOT NULL CHECK (btrim(to_email) <> ''),
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'permanently_failed')),
      retry_count integer NOT NULL DEFAULT 0 CHECK (retry_count >= 0),
      max_retries integer NOT NULL DEFAULT 5 CHECK (max_retries >= 1),
      next_retry_at timestamptz,
      last_error text,
      message_id text,
      -- Set while a processor is sending the row; a crashed processor's claim runs out by itself.
      locked_until timestamptz,
      sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- The processor's claim: due rows that are pending or failed, oldest first.
    CREATE INDEX email_queue_due_idx ON email_queue (coalesce(next_retry_at, created_at)) WHERE status IN ('pending', 'failed');
    CREATE INDEX email_queue_newest_idx ON email_queue (created_at DESC);
    CREATE INDEX email_queue_status_newest_idx ON email_queue (status, created_at DESC);

    CREATE TABLE email_logs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email_queue_id uuid NOT NULL REFERENCES email_queue (id) ON DELETE CASCADE,
      attempt_number integer NOT NULL CHECK (attempt_number >= 1),
      status text NOT NULL,
      response_code integer,
      error_message text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (email_queue_id, attempt_number)
    );

    -- Facts about this installation, e.g. that the demo data was seeded (so it never is twice).
    CREATE TABLE app_meta (
      key text PRIMARY KEY,
      value text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE app_meta, email_logs, email_queue, mockup_templates, artwork_library, contact_submissions,
      order_items, orders, subscription_plans, products, categories, customers, auth_tokens, sessions, users;
    DROP SEQUENCE order_number_seq;
  `.execute(db);
}
