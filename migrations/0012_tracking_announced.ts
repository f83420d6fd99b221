import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// The tracking number the customer was last emailed, so that one given while an order was moved
// back from shipped is announced when it ships again, and none is announced twice.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE orders ADD COLUMN tracking_announced text`.execute(db);
  // Orders shipped (or delivered) with a tracking number told their customer of it. One moved back
  // from shipped may hold a number given since, never sent: it goes out when the order ships again.
  await sql`
    UPDATE orders SET tracking_announced = tracking_number
    WHERE tracking_number IS NOT NULL
      AND status IN ('shipped', 'delivered')
      AND EXISTS (SELECT 1 FROM order_events WHERE order_events.order_id = orders.id AND order_events.kind = 'shipped')
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE orders DROP COLUMN tracking_announced`.execute(db);
}
