import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import {
  ORDERS_PAGE_SIZE,
  ORDER_ITEM_NOT_FOUND,
  ORDER_NOT_FOUND,
  orderGetInput,
  orderItemSetPrintStatusInput,
  orderSetStatusInput,
  orderSetTrackingInput,
  ordersListInput,
} from '../../../shared/schemas/admin-orders';
import type { Db } from '../../db/database';
import { adminProcedure, router } from '../../trpc/init';

// The Orders screen (SPEC §2, §4, §7): a server-paged list newest first with a status filter,
// one order with its items, and the three changes an admin makes (order status, tracking
// number, an item's print status), each stamping updated_at. Any value may be set directly.

const ORDER_COLUMNS = [
  'orders.id',
  'orders.order_number',
  'orders.created_at',
  'orders.updated_at',
  'orders.status',
  'orders.payment_status',
  'orders.total',
  'orders.tracking_number',
  'customers.email as customer_email',
  'customers.first_name as customer_first_name',
  'customers.last_name as customer_last_name',
] as const;

const ITEM_COLUMNS = [
  'order_items.id',
  'order_items.product_name',
  'order_items.product_image',
  'order_items.size',
  'order_items.quantity',
  'order_items.unit_price',
  'order_items.total_price',
  'order_items.print_status',
  'order_items.updated_at',
  'products.sku_number',
] as const;

const ordersWithCustomer = (db: Db) => db.selectFrom('orders').innerJoin('customers', 'customers.id', 'orders.customer_id');

async function getOrder(db: Db, id: string) {
  const order = await ordersWithCustomer(db)
    .select([...ORDER_COLUMNS, 'orders.subtotal', 'orders.tax', 'orders.shipping_cost', 'orders.shipping_address', 'orders.notes'])
    .where('orders.id', '=', id)
    .executeTakeFirst();
  if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: ORDER_NOT_FOUND });
  const items = await db
    .selectFrom('order_items')
    .leftJoin('products', 'products.id', 'order_items.product_id')
    .select(ITEM_COLUMNS)
    .where('order_items.order_id', '=', id)
    .orderBy('order_items.created_at')
    .orderBy('order_items.id')
    .execute();
  return { ...order, items };
}

export const adminOrdersRouter = router({
  /** One page of orders, newest first, optionally of one status. */
  list: adminProcedure.input(ordersListInput).query(async ({ ctx, input }) => {
    const status = input.status === 'all' ? null : input.status;
    const counted = await ctx.db
      .selectFrom('orders')
      .select(sql<number>`count(*)::int`.as('total'))
      .$call((qb) => (status ? qb.where('status', '=', status) : qb))
      .executeTakeFirstOrThrow();
    const pageCount = Math.max(1, Math.ceil(counted.total / ORDERS_PAGE_SIZE));
    // A page past the end (e.g. after a filter change) shows the last one.
    const page = Math.min(input.page, pageCount);
    const orders = await ordersWithCustomer(ctx.db)
      .select(ORDER_COLUMNS)
      .$call((qb) => (status ? qb.where('orders.status', '=', status) : qb))
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc')
      .limit(ORDERS_PAGE_SIZE)
      .offset((page - 1) * ORDERS_PAGE_SIZE)
      .execute();
    return {
      orders,
      total: counted.total,
      page,
      pageCount,
      pageSize: ORDERS_PAGE_SIZE,
    };
  }),

  /** One order with its customer and items (product SKU joined), for the detail modal. */
  get: adminProcedure.input(orderGetInput).query(({ ctx, input }) => getOrder(ctx.db, input.id)),

  setStatus: adminProcedure.input(orderSetStatusInput).mutation(async ({ ctx, input }) => {
    const updated = await ctx.db
      .updateTable('orders')
      .set({ status: input.status, updated_at: sql<string>`now()` })
      .where('id', '=', input.id)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw new TRPCError({ code: 'NOT_FOUND', message: ORDER_NOT_FOUND });
    return getOrder(ctx.db, input.id);
  }),

  setTrackingNumber: adminProcedure.input(orderSetTrackingInput).mutation(async ({ ctx, input }) => {
    const updated = await ctx.db
      .updateTable('orders')
      .set({
        tracking_number: input.trackingNumber,
        updated_at: sql<string>`now()`,
      })
      .where('id', '=', input.id)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw new TRPCError({ code: 'NOT_FOUND', message: ORDER_NOT_FOUND });
    return getOrder(ctx.db, input.id);
  }),

  setItemPrintStatus: adminProcedure.input(orderItemSetPrintStatusInput).mutation(async ({ ctx, input }) => {
    const updated = await ctx.db
      .updateTable('order_items')
      .set({
        print_status: input.printStatus,
        updated_at: sql<string>`now()`,
      })
      .where('id', '=', input.itemId)
      .returning('order_id')
      .executeTakeFirst();
    if (!updated)
      throw new TRPCError({
        code: 'NOT_FOUND',
        message: ORDER_ITEM_NOT_FOUND,
      });
    return getOrder(ctx.db, updated.order_id);
  }),
});
