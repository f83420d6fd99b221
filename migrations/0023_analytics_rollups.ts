import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Daily sales figures for Admin → Analytics, kept by triggers as orders change (as order_stats
// is), so a range of days is a read of at most a few hundred small rows however many orders the
// store has. Days are the store's days: `store_settings.time_zone` (default UTC); changing it
// rebuilds the rollups from the orders in the same transaction.
//
// - sales_days: per day, paid orders (paid or later refunded) and their totals by the day they
//   were paid, refunds by the day of the refund (`orders.refunded_at`, new here);
// - customer_sales_days: per customer and day, their paid orders (the returning-customer rate);
// - product_sales_days: per day and product, units and line revenue of orders still paid.
// A row whose count falls to zero is deleted, so an erased customer or a deleted product leaves
// nothing naming it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE store_settings ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC';
    ALTER TABLE orders ADD COLUMN refunded_at timestamptz;
    UPDATE orders SET refunded_at = coalesce(
      (SELECT max(created_at) FROM order_events WHERE order_id = orders.id AND kind = 'refunded'), updated_at
    ) WHERE payment_status = 'refunded';

    CREATE TABLE sales_days (
      day date PRIMARY KEY,
      orders integer NOT NULL,
      sales numeric(14, 2) NOT NULL,
      refunds numeric(14, 2) NOT NULL
    );
    CREATE TABLE customer_sales_days (
      customer_id uuid NOT NULL,
      day date NOT NULL,
      orders integer NOT NULL,
      PRIMARY KEY (customer_id, day)
    );
    CREATE INDEX customer_sales_days_day_idx ON customer_sales_days (day, customer_id);
    CREATE TABLE product_sales_days (
      day date NOT NULL,
      product_id uuid NOT NULL,
      units integer NOT NULL,
      revenue numeric(14, 2) NOT NULL,
      PRIMARY KEY (day, product_id)
    );

    -- The refund's moment, set once when an order becomes refunded (or is written refunded).
    CREATE FUNCTION stamp_order_refund() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.payment_status = 'refunded' AND NEW.refunded_at IS NULL THEN
        NEW.refunded_at := CASE WHEN TG_OP = 'INSERT' THEN coalesce(NEW.updated_at, now()) ELSE now() END;
      END IF;
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER orders_refund_stamped BEFORE INSERT OR UPDATE OF payment_status ON orders
    FOR EACH ROW EXECUTE FUNCTION stamp_order_refund();

    -- One order's part of the rollups, added (sign 1) or taken away (sign -1).
    CREATE FUNCTION apply_order_sales(o orders, sign integer) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      tz text := (SELECT time_zone FROM store_settings);
      paid_day date;
    BEGIN
      IF o.payment_status NOT IN ('paid', 'refunded') THEN RETURN; END IF;
      paid_day := (coalesce(o.paid_at, o.created_at) AT TIME ZONE tz)::date;
      INSERT INTO sales_days AS d (day, orders, sales, refunds) VALUES (paid_day, sign, sign * o.total, 0)
      ON CONFLICT (day) DO UPDATE SET orders = d.orders + excluded.orders, sales = d.sales + excluded.sales;
      IF o.payment_status = 'refunded' THEN
        INSERT INTO sales_days AS d (day, orders, sales, refunds)
        VALUES ((coalesce(o.refunded_at, o.updated_at) AT TIME ZONE tz)::date, 0, 0, sign * o.total)
        ON CONFLICT (day) DO UPDATE SET refunds = d.refunds + excluded.refunds;
      END IF;
      IF o.customer_id IS NOT NULL THEN
        INSERT INTO customer_sales_days AS c (customer_id, day, orders) VALUES (o.customer_id, paid_day, sign)
        ON CONFLICT (customer_id, day) DO UPDATE SET orders = c.orders + excluded.orders;
        DELETE FROM customer_sales_days WHERE customer_id = o.customer_id AND day = paid_day AND orders = 0;
      END IF;
      IF o.payment_status = 'paid' THEN
        INSERT INTO product_sales_days AS p (day, product_id, units, revenue)
        SELECT paid_day, product_id, sign * sum(quantity), sign * sum(total_price)
        FROM order_items WHERE order_id = o.id AND product_id IS NOT NULL
        GROUP BY product_id ORDER BY product_id
        ON CONFLICT (day, product_id) DO UPDATE SET units = p.units + excluded.units, revenue = p.revenue + excluded.revenue;
        DELETE FROM product_sales_days WHERE day = paid_day AND units = 0
          AND product_id IN (SELECT product_id FROM order_items WHERE order_id = o.id);
      END IF;
    END
    $$;

    CREATE FUNCTION count_order_sales() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM apply_order_sales(OLD, -1); END IF;
      IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM apply_order_sales(NEW, 1); END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
    END
    $$;
    CREATE TRIGGER orders_sales_counted AFTER INSERT OR UPDATE OF payment_status, total, paid_at, refunded_at, customer_id, created_at
    ON orders FOR EACH ROW EXECUTE FUNCTION count_order_sales();
    -- Before: the order's lines are still there to take away (they go with it by cascade).
    CREATE TRIGGER orders_sales_uncounted BEFORE DELETE ON orders FOR EACH ROW EXECUTE FUNCTION count_order_sales();

    -- Lines written or changed while their order is paid (a renewal writes its order paid first).
    CREATE FUNCTION count_item_sales() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      o orders;
      paid_day date;
    BEGIN
      SELECT * INTO o FROM orders WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.order_id ELSE NEW.order_id END;
      IF NOT FOUND OR o.payment_status <> 'paid' THEN RETURN NULL; END IF;
      paid_day := (coalesce(o.paid_at, o.created_at) AT TIME ZONE (SELECT time_zone FROM store_settings))::date;
      INSERT INTO product_sales_days AS p (day, product_id, units, revenue)
      SELECT paid_day, product_id, sum(units), sum(revenue)
      FROM (
        SELECT OLD.product_id, -OLD.quantity, -OLD.total_price WHERE TG_OP IN ('UPDATE', 'DELETE')
        UNION ALL
        SELECT NEW.product_id, NEW.quantity, NEW.total_price WHERE TG_OP IN ('UPDATE', 'INSERT')
      ) AS change (product_id, units, revenue)
      WHERE product_id IS NOT NULL
      GROUP BY product_id ORDER BY product_id
      ON CONFLICT (day, product_id) DO UPDATE SET units = p.units + excluded.units, revenue = p.revenue + excluded.revenue;
      DELETE FROM product_sales_days WHERE day = paid_day AND units = 0;
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER order_items_sales_counted AFTER INSERT OR DELETE OR UPDATE OF product_id, quantity, total_price
    ON order_items FOR EACH ROW EXECUTE FUNCTION count_item_sales();

    -- Every rollup again from the orders: at this migration and when the time zone changes.
    CREATE FUNCTION rebuild_sales_rollups() RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      tz text := (SELECT time_zone FROM store_settings);
    BEGIN
      DELETE FROM sales_days;
      DELETE FROM customer_sales_days;
      DELETE FROM product_sales_days;
      INSERT INTO sales_days (day, orders, sales, refunds)
      SELECT day, sum(orders), sum(sales), sum(refunds)
      FROM (
        SELECT (coalesce(paid_at, created_at) AT TIME ZONE tz)::date, 1, total, 0
        FROM orders WHERE payment_status IN ('paid', 'refunded')
        UNION ALL
        SELECT (coalesce(refunded_at, updated_at) AT TIME ZONE tz)::date, 0, 0, total
        FROM orders WHERE payment_status = 'refunded'
      ) AS part (day, orders, sales, refunds)
      GROUP BY day;
      INSERT INTO customer_sales_days (customer_id, day, orders)
      SELECT customer_id, (coalesce(paid_at, created_at) AT TIME ZONE tz)::date AS day, count(*)
      FROM orders WHERE payment_status IN ('paid', 'refunded') AND customer_id IS NOT NULL
      GROUP BY 1, 2;
      INSERT INTO product_sales_days (day, product_id, units, revenue)
      SELECT (coalesce(o.paid_at, o.created_at) AT TIME ZONE tz)::date AS day, i.product_id, sum(i.quantity), sum(i.total_price)
      FROM orders o JOIN order_items i ON i.order_id = o.id
      WHERE o.payment_status = 'paid' AND i.product_id IS NOT NULL
      GROUP BY 1, 2
      HAVING sum(i.quantity) <> 0;
    END
    $$;
    SELECT rebuild_sales_rollups();

    CREATE FUNCTION rebuild_sales_rollups_for_zone() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM rebuild_sales_rollups();
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER store_time_zone_changed AFTER UPDATE OF time_zone ON store_settings
    FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION rebuild_sales_rollups_for_zone();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER store_time_zone_changed ON store_settings;
    DROP TRIGGER order_items_sales_counted ON order_items;
    DROP TRIGGER orders_sales_uncounted ON orders;
    DROP TRIGGER orders_sales_counted ON orders;
    DROP TRIGGER orders_refund_stamped ON orders;
    DROP FUNCTION rebuild_sales_rollups_for_zone(), rebuild_sales_rollups(), count_item_sales(), count_order_sales(),
      apply_order_sales(orders, integer), stamp_order_refund();
    DROP TABLE sales_days, customer_sales_days, product_sales_days;
    ALTER TABLE orders DROP COLUMN refunded_at;
    ALTER TABLE store_settings DROP COLUMN time_zone;
  `.execute(db);
}
