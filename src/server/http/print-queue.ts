import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import { DELETED_CUSTOMER } from '../../shared/constants';
import { PRINT_QUEUE_COLUMNS, PRINT_QUEUE_PATH, PRINT_QUEUE_STATUSES, printQueueFileName } from '../../shared/schemas/admin-orders';
import { isAdmin } from '../auth/admin';
import { readSession } from '../auth/cookies';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { orderEmail } from '../orders/recipient';
import { ADMIN_REQUIRED } from '../trpc/init';
import { neutraliseFormula } from '../catalog/product-csv';

// GET /api/admin/print-queue.csv (docs/PRODUCT.md § Screens, Reads and writes and Limits): the order items still to print
// (pending or printing), ordered by order, as a CSV download for admins. An empty queue answers
// 204 with no body, so the screen can say 'No items in print queue' instead of saving an empty file.

export interface PrintQueueRouteOptions {
  config: Config;
  db: Db;
}

const orderDate = (iso: string) => iso.slice(0, 10);

export const printQueueRoutes: FastifyPluginCallback<PrintQueueRouteOptions> = (app: FastifyInstance, { config, db }, done) => {
  app.get(PRINT_QUEUE_PATH, async (req, reply) => {
    const session = await readSession(config, db, req, reply);
    if (!session) return reply.code(401).send({ error: 'Not authenticated' });
    if (!(await isAdmin(db, session.user.id))) return reply.code(403).send({ error: ADMIN_REQUIRED });

    const items = await db
      .selectFrom('order_items')
      .innerJoin('orders', 'orders.id', 'order_items.order_id')
      .leftJoin('customers', 'customers.id', 'orders.customer_id')
      .leftJoin('products', 'products.id', 'order_items.product_id')
      .select([
        'orders.order_number',
        'products.sku_number',
        'order_items.variant_sku',
        'order_items.colour_name',
        orderEmail.as('email'),
        'customers.first_name',
        'customers.last_name',
        'order_items.product_name',
        'order_items.size',
        'order_items.quantity',
        'order_items.print_status',
        'orders.created_at',
        'orders.status',
      ])
      .where('order_items.print_status', 'in', PRINT_QUEUE_STATUSES)
      // Only what was paid for is printed, and nothing of a cancelled order.
      .where('orders.payment_status', '=', 'paid')
      .where('orders.status', '!=', 'cancelled')
      // Oldest order first (the printing order), items of one order together.
      .orderBy('orders.created_at')
      .orderBy('orders.id')
      .orderBy('order_items.created_at')
      .orderBy('order_items.id')
      .execute();

    reply.header('Cache-Control', 'no-store');
    if (items.length === 0) return reply.code(204).send();

    const rows = items.map((item) => {
      const name = [item.first_name, item.last_name].filter(Boolean).join(' ');
      return [
        item.order_number,
        // The variant's SKU (product, colour, size) as bought; the product's for lines from before colours.
        item.variant_sku ?? item.sku_number ?? '',
        // An erased customer's paid order still prints, for no one in particular.
        item.email === null ? DELETED_CUSTOMER : name ? `${name} <${item.email}>` : item.email,
        item.product_name,
        item.colour_name ?? '',
        item.size,
        String(item.quantity),
        item.print_status,
        orderDate(item.created_at),
        item.status,
      ].map(neutraliseFormula);
    });
    // Loaded by the first export, not at start-up.
    const { stringify } = await import('csv-stringify/sync');
    const csv = stringify([[...PRINT_QUEUE_COLUMNS], ...rows]);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${printQueueFileName(new Date())}"`)
      .send(csv);
  });
  done();
};
