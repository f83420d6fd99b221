import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// The storefront's search (docs/adr/0032-search-ranking.md): each product carries what a visitor
// may search it by, its name, tags, category and description, as full-text words weighted by where
// they come from. Every word the
// catalog has is also kept in search_words, where pg_trgm finds the words a misspelt one was meant
// to be. A trigger keeps them, on the product's writes and on a rename of its category. pg_trgm
// ships with PostgreSQL's contrib modules and with the embedded database (src/server/db/database.ts).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    ALTER TABLE products ADD COLUMN search_vector tsvector NOT NULL DEFAULT ''::tsvector;

    -- Words are only ever added: one no product has any more finds nothing.
    CREATE TABLE search_words (word text PRIMARY KEY);
    CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);

    CREATE FUNCTION products_fill_search() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      category_name text;
      tag_words text := array_to_string(NEW.tags, ' ');
    BEGIN
      SELECT name INTO category_name FROM categories WHERE id = NEW.category_id;
      NEW.search_vector :=
        setweight(to_tsvector('simple', NEW.name), 'A') ||
        setweight(to_tsvector('simple', concat_ws(' ', tag_words, category_name)), 'B') ||
        setweight(to_tsvector('simple', NEW.description), 'C');
      INSERT INTO search_words (word) SELECT lexeme FROM unnest(NEW.search_vector) ON CONFLICT DO NOTHING;
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER products_fill_search BEFORE INSERT OR UPDATE OF name, tags, description, category_id ON products
      FOR EACH ROW EXECUTE FUNCTION products_fill_search();

    -- A renamed category renames what its products are found by.
    CREATE FUNCTION categories_refill_product_search() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE products SET category_id = category_id WHERE category_id = NEW.id;
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER categories_refill_product_search AFTER UPDATE OF name ON categories
      FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION categories_refill_product_search();

    UPDATE products SET category_id = category_id;

    CREATE INDEX products_search_vector_idx ON products USING gin (search_vector);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER categories_refill_product_search ON categories;
    DROP FUNCTION categories_refill_product_search();
    DROP TRIGGER products_fill_search ON products;
    DROP FUNCTION products_fill_search();
    ALTER TABLE products DROP COLUMN search_vector;
    DROP TABLE search_words;
  `.execute(db);
}
