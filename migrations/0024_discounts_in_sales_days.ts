import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Admin → Analytics' "Discounts given": the discounts of paid orders (paid, or paid then refunded,
// as the Orders card counts them) by the day they were paid, kept in sales_days by the same
// triggers as the sales (migration 0023), so the card reads days, not orders. The functions are
// those of 0023 with the discount added; a rebuild fills the column for the orders there are.

const applyOrderSales = (withDiscount: boolean) => sql`
  CREATE OR REPLACE FUNCTION apply_order_sales(o orders, sign integer) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE
    tz text := (SELECT time_zone FROM store_settings);
    paid_day date;
  BEGIN
    IF o.payment_status NOT IN ('paid', 'refunded') THEN RETURN; END IF;
    paid_day := (coalesce(o.paid_at, o.created_at) AT TIME ZONE tz)::date;
    ${
      withDiscount
        ? sql`INSERT INTO sales_days AS d (day, orders, sales, refunds, discounts) VALUES (paid_day, sign, sign * o.total, 0, sign * o.discount)
    ON CONFLICT (day) DO UPDATE SET orders = d.orders + excluded.orders, sales = d.sales + excluded.sales,
      discounts = d.discounts + excluded.discounts;`
        : sql`INSERT INTO sales_days AS d (day, orders, sales, refunds) VALUES (paid_day, sign, sign * o.total, 0)
    ON CONFLICT (day) DO UPDATE SET orders = d.orders + excluded.orders, sales = d.sales + excluded.sales;`
    }
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
  $$;`;

const salesDaysRebuild = (withDiscount: boolean) => sql`
  CREATE OR REPLACE FUNCTION rebuild_sales_rollups() RETURNS void LANGUAGE plpgsql AS $$
  DECLARE
    tz text := (SELECT time_zone FROM store_settings);
  BEGIN
    DELETE FROM sales_days;
    DELETE FROM customer_sales_days;
    DELETE FROM product_sales_days;
    ${
      withDiscount
        ? sql`INSERT INTO sales_days (day, orders, sales, refunds, discounts)
    SELECT day, sum(orders), sum(sales), sum(refunds), sum(discounts)
    FROM (
      SELECT (coalesce(paid_at, created_at) AT TIME ZONE tz)::date, 1, total, 0, discount
      FROM orders WHERE payment_status IN ('paid', 'refunded')
      UNION ALL
      SELECT (coalesce(refunded_at, updated_at) AT TIME ZONE tz)::date, 0, 0, total, 0
      FROM orders WHERE payment_status = 'refunded'
    ) AS part (day, orders, sales, refunds, discounts)
    GROUP BY day;`
        : sql`INSERT INTO sales_days (day, orders, sales, refunds)
    SELECT day, sum(orders), sum(sales), sum(refunds)
    FROM (
      SELECT (coalesce(paid_at, created_at) AT TIME ZONE tz)::date, 1, total, 0
      FROM orders WHERE payment_status IN ('paid', 'refunded')
      UNION ALL
      SELECT (coalesce(refunded_at, updated_at) AT TIME ZONE tz)::date, 0, 0, total
      FROM orders WHERE payment_status = 'refunded'
    ) AS part (day, orders, sales, refunds)
    GROUP BY day;`
    }
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
  $$;`;

const salesTrigger = (columns: string) => sql`
  DROP TRIGGER orders_sales_counted ON orders;
  CREATE TRIGGER orders_sales_counted AFTER INSERT OR UPDATE OF ${sql.raw(columns)}
  ON orders FOR EACH ROW EXECUTE FUNCTION count_order_sales();`;

const COUNTED_COLUMNS = 'payment_status, total, paid_at, refunded_at, customer_id, created_at';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sales_days ADD COLUMN discounts numeric(14, 2) NOT NULL DEFAULT 0`.execute(db);
  await applyOrderSales(true).execute(db);
  await salesDaysRebuild(true).execute(db);
  await salesTrigger(`${COUNTED_COLUMNS}, discount`).execute(db);
  await sql`SELECT rebuild_sales_rollups()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await salesTrigger(COUNTED_COLUMNS).execute(db);
  await salesDaysRebuild(false).execute(db);
  await applyOrderSales(false).execute(db);
  await sql`ALTER TABLE sales_days DROP COLUMN discounts`.execute(db);
}
