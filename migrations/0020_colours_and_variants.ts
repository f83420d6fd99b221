import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Shirts in colours (docs/adr/0029): a product has one or more colours (name, hex, an SKU code, the
// admin's own blank photos and the mockups rendered for it); a variant is one colour in one size,
// with its SKU and an on/off switch. Its price is the product's plus the size's surcharge, a store
// setting. Every existing product gets one colour, White (the colour of the shirt its mockups show),
// with its mockups and a variant per offered size, so nothing a shopper sees changes. Order lines
// record the colour, hex and SKU they were bought in; the lines of older orders get their
// product's colour. Club members choose which colours they accept.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE product_colours (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      name text NOT NULL CHECK (btrim(name) <> '' AND length(name) <= 40),
      slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
      hex text NOT NULL CHECK (hex ~ '^#[0-9a-f]{6}$'),
      code text NOT NULL CHECK (code ~ '^[A-Z0-9]{1,6}$'),
      sort_order integer NOT NULL,
      front_blank_url text,
      back_blank_url text,
      front_mockup_url text,
      back_mockup_url text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT product_colours_slug_key UNIQUE (product_id, slug),
      CONSTRAINT product_colours_code_key UNIQUE (product_id, code)
    );
    CREATE UNIQUE INDEX product_colours_name_key ON product_colours (product_id, lower(name));
    CREATE INDEX product_colours_product_idx ON product_colours (product_id, sort_order);

    CREATE TABLE product_variants (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      colour_id uuid NOT NULL REFERENCES product_colours (id) ON DELETE CASCADE,
      size text NOT NULL CHECK (size IN ('XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '4XL')),
      sku text NOT NULL CHECK (btrim(sku) <> ''),
      is_enabled boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- Deferred: renaming colours can swap two codes within one statement.
      CONSTRAINT product_variants_sku_key UNIQUE (sku) DEFERRABLE INITIALLY DEFERRED,
      CONSTRAINT product_variants_colour_size_key UNIQUE (colour_id, size)
    );
    CREATE INDEX product_variants_product_idx ON product_variants (product_id);

    INSERT INTO product_colours (product_id, name, slug, hex, code, sort_order, front_mockup_url, back_mockup_url)
      SELECT id, 'White', 'white', '#ffffff', 'WHT', 0, front_mockup_url, back_mockup_url FROM products;
    INSERT INTO product_variants (product_id, colour_id, size, sku)
      SELECT p.id, c.id, s.size, p.sku_number || '-' || c.code || '-' || s.size
      FROM products p
      JOIN product_colours c ON c.product_id = p.id
      CROSS JOIN LATERAL unnest(p.available_sizes) AS s (size);

    -- Surcharge per size, as money strings ("2.00"); a size not named costs nothing extra.
    ALTER TABLE store_settings ADD COLUMN size_surcharges jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(size_surcharges) = 'object');

    ALTER TABLE order_items
      ADD COLUMN variant_id uuid REFERENCES product_variants (id) ON DELETE SET NULL,
      ADD COLUMN variant_sku text,
      ADD COLUMN colour_name text,
      ADD COLUMN colour_hex text CHECK (colour_hex ~ '^#[0-9a-f]{6}$');
    CREATE INDEX order_items_variant_idx ON order_items (variant_id);
    UPDATE order_items i SET variant_id = v.id, variant_sku = v.sku, colour_name = c.name, colour_hex = c.hex
      FROM product_variants v JOIN product_colours c ON c.id = v.colour_id
      WHERE v.product_id = i.product_id AND v.size = i.size;

    ALTER TABLE subscriptions ADD COLUMN colour_choice text NOT NULL DEFAULT 'any' CHECK (colour_choice IN ('any', 'light', 'dark'));

    -- Every product has a colour from its first moment, whoever inserts it (the admin's form then
    -- puts its own colours in its place, in the same transaction), as every existing one got above.
    CREATE FUNCTION product_first_colour() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO product_colours (product_id, name, slug, hex, code, sort_order, front_mockup_url, back_mockup_url)
        VALUES (NEW.id, 'White', 'white', '#ffffff', 'WHT', 0, NEW.front_mockup_url, NEW.back_mockup_url);
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER products_first_colour AFTER INSERT ON products FOR EACH ROW EXECUTE FUNCTION product_first_colour();

    -- Every colour has a variant in each size its product offers (switched on when new), and every
    -- variant's SKU is the product's SKU, the colour's code and the size: kept so here, whatever changes.
    CREATE FUNCTION sync_product_variants() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      -- The product's id: the column the trigger names (id on products, product_id on colours).
      pid uuid := (to_jsonb(NEW) ->> TG_ARGV[0])::uuid;
    BEGIN
      INSERT INTO product_variants (product_id, colour_id, size, sku)
        SELECT p.id, c.id, s.size, p.sku_number || '-' || c.code || '-' || s.size
        FROM products p
        JOIN product_colours c ON c.product_id = p.id
        CROSS JOIN LATERAL unnest(p.available_sizes) AS s (size)
        WHERE p.id = pid
        ON CONFLICT (colour_id, size) DO NOTHING;
      UPDATE product_variants v SET sku = p.sku_number || '-' || c.code || '-' || v.size, updated_at = now()
        FROM products p, product_colours c
        WHERE v.product_id = pid AND p.id = pid AND c.id = v.colour_id AND v.sku <> p.sku_number || '-' || c.code || '-' || v.size;
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER product_colours_variants AFTER INSERT OR UPDATE OF code ON product_colours
      FOR EACH ROW EXECUTE FUNCTION sync_product_variants('product_id');
    CREATE TRIGGER products_variants AFTER UPDATE OF available_sizes, sku_number ON products
      FOR EACH ROW EXECUTE FUNCTION sync_product_variants('id');
  `.execute(db);
  for (const table of ['product_colours', 'product_variants']) {
    await sql`
      CREATE TRIGGER ${sql.id(`${table}_catalog_changed`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION announce_catalog_change()
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE subscriptions DROP COLUMN colour_choice;
    ALTER TABLE order_items DROP COLUMN variant_id, DROP COLUMN variant_sku, DROP COLUMN colour_name, DROP COLUMN colour_hex;
    ALTER TABLE store_settings DROP COLUMN size_surcharges;
    DROP TRIGGER products_variants ON products;
    DROP TRIGGER products_first_colour ON products;
    DROP TABLE product_variants, product_colours;
    DROP FUNCTION sync_product_variants(), product_first_colour();
  `.execute(db);
}
