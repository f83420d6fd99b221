import { sql } from 'kysely';
import {
  ORDERS_PAGE_SIZE,
  orderGetInput,
  orderItemSetPrintStatusInput,
  orderSetStatusInput,
  orderSetTrackingInput,
  ordersListInput,
} from '../../../shared/schemas/admin-orders';
import { TRPCError } from '@trpc/server';
import type { Db } from '../../db/database';
import { markOrderPaid, markOrderRefunded, setOrderStatus, setOrderTrackingNumber } from '../../orders/transitions';
import { refundCancelledOrder } from '../../orders/notifications';
import { orderEmail, ordersWithCustomer } from '../../orders/recipient';
import { countRows } from '../../db/count';
import { assertFound, containsPattern, notFound } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { readPage } from '../../trpc/paging';

// The Orders screen (docs/PRODUCT.md § Screens, States and Reads and writes): a server-paged list newest first with a status filter,
// one order with its items and history, and the changes an admin makes (order status, tracking
// number, an item's print status), each stamping updated_at; any status may be set directly.
// Shipping and cancelling email the customer. Payment: a hand-paid order is marked paid here, and
// any paid order can be refunded (a card payment through the provider).

export const NOT_PAID_BY_HAND = 'Only orders paid by hand are marked paid here; card payments are confirmed by the payment provider';
export const NOT_AWAITING_PAYMENT = 'This order is not waiting for payment';
export const CANCELLED_NOT_PAYABLE = 'This order is cancelled. Set another status first if its payment should count.';
export const NOT_REFUNDABLE = 'Only paid orders can be refunded';

const ORDER_COLUMNS = [
  'orders.id',
  'orders.order_number',
  'orders.created_at',
  'orders.updated_at',
  'orders.status',
  'orders.payment_status',
  'orders.total',
  'orders.tracking_number',
  'orders.payment_provider',
  orderEmail.as('customer_email'),
  'customers.first_name as customer_first_name',
  'customers.last_name as customer_last_name',
] as const;

const ITEM_COLUMNS = [
  'order_items.id',
  'order_items.product_name',
  'order_items.product_image',
  'order_items.size',
  'order_items.colour_name',
  'order_items.colour_hex',
  'order_items.variant_sku',
  'order_items.quantity',
  'order_items.unit_price',
  'order_items.total_price',
  'order_items.print_status',
  'order_items.updated_at',
  'products.sku_number',
] as const;

async function getOrder(db: Db, id: string) {
  const order = assertFound(
    await ordersWithCustomer(db)
      .select([
        ...ORDER_COLUMNS,
        'orders.subtotal',
        'orders.tax',
        'orders.shipping_cost',
        'orders.discount_code',
        'orders.discount',
        'orders.shipping_address',
        'orders.notes',
        'orders.payment_intent_id',
        'orders.paid_at',
      ])
      .where('orders.id', '=', id)
      .executeTakeFirst(),
    'Order',
  );
  const [items, events] = await Promise.all([
    db
      .selectFrom('order_items')
      .leftJoin('products', 'products.id', 'order_items.product_id')
      .select(ITEM_COLUMNS)
      .where('order_items.order_id', '=', id)
      .orderBy('order_items.created_at')
      .orderBy('order_items.id')
      .execute(),
    db.selectFrom('order_events').select(['kind', 'created_at']).where('order_id', '=', id).orderBy('created_at').orderBy('id').execute(),
  ]);
  return { ...order, items, events };
}

/**
 * An order whose number, customer's email or name (on the account, or on the shipping address)
 * contains the text, case-insensitively; "1042" finds TL-1042.
 */
function orderMatches(text: string) {
  const pattern = containsPattern(text);
  return sql<boolean>`(orders.order_number ILIKE ${pattern} OR customers.email ILIKE ${pattern} OR orders.guest_email ILIKE ${pattern}
    OR concat_ws(' ', customers.first_name, customers.last_name) ILIKE ${pattern} OR orders.shipping_address->>'name' ILIKE ${pattern})`;
}

export const adminOrdersRouter = router({
  /** One page of orders, newest first, optionally of one status. */
  list: adminProcedure.input(ordersListInput).query(async ({ ctx, input }) => {
    const status = input.status === 'all' ? null : input.status;
    const filtered = ordersWithCustomer(ctx.db)
      .$call((qb) => (status ? qb.where('orders.status', '=', status) : qb))
      .$call((qb) => (input.search ? qb.where(orderMatches(input.search)) : qb));
    // Without a search, from the counts a trigger keeps (migration 0009): no scan of every order.
    const total = input.search
      ? await countRows(filtered)
      : (
          await ctx.db
            .selectFrom('order_stats')
            .select(sql<number>`coalesce(sum(order_count), 0)::int`.as('total'))
            .$call((qb) => (status ? qb.where('status', '=', status) : qb))
            .executeTakeFirstOrThrow()
        ).total;
    const { items, ...pager } = await readPage(total, input.page, ORDERS_PAGE_SIZE, () =>
      filtered.select(ORDER_COLUMNS).orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc'),
    );
    return { orders: items, ...pager };
  }),

  /** One order with its customer and items (product SKU joined), for the detail modal. */
  get: adminProcedure.input(orderGetInput).query(({ ctx, input }) => getOrder(ctx.db, input.id)),

  setStatus: adminProcedure.input(orderSetStatusInput).mutation(async ({ ctx, input }) => {
    let cancelsOpenPayment = false;
    if (input.status === 'cancelled') {
      // A card payment page still open for it would otherwise take the money of a cancelled order.
      const order = await ctx.db
        .selectFrom('orders')
        .select(['payment_provider', 'payment_status', 'checkout_session_id'])
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (order?.checkout_session_id && order.payment_status === 'pending' && order.payment_provider === ctx.payments.name) {
        cancelsOpenPayment = true;
        // Stripe out of reach does not stop the cancellation: a payment made on the page still
        // open is refunded when its notice comes (refundCancelledOrder).
        await ctx.payments.closePayment(order.checkout_session_id).catch((error: unknown) => {
          ctx.log.warn({ err: error, orderId: input.id }, 'could not close the payment page of a cancelled order');
        });
      }
    }
    const result = assertFound(
      await ctx.db.transaction().execute((trx) => setOrderStatus(trx, ctx.config, input.id, input.status)),
      'Order',
    );
    // Paid in the moment between the admin's click and the cancellation: its notice came before the
    // cancellation and refunded nothing, so the money goes back here, as it does when it comes after.
    if (cancelsOpenPayment && result.changed && result.paymentStatus === 'paid') {
      await refundCancelledOrder({ db: ctx.db, mail: ctx.config, log: ctx.log }, ctx.payments, input.id);
    }
    return getOrder(ctx.db, input.id);
  }),

  /** A hand-paid order's money arrived: paid, into the print queue, "payment received" emailed. */
  markPaid: adminProcedure.input(orderGetInput).mutation(async ({ ctx, input }) => {
    const order = assertFound(
      await ctx.db.selectFrom('orders').select(['payment_provider', 'payment_status']).where('id', '=', input.id).executeTakeFirst(),
      'Order',
    );
    if (order.payment_provider !== 'manual') throw new TRPCError({ code: 'PRECONDITION_FAILED', message: NOT_PAID_BY_HAND });
    const changed = await ctx.db.transaction().execute(async (trx) => {
      // Locked, as a status change locks it: a cancellation cannot slip in between.
      const { status } = await trx.selectFrom('orders').select('status').where('id', '=', input.id).forUpdate().executeTakeFirstOrThrow();
      // It would email "your tees go to print now" for an order that is not printed.
      if (status === 'cancelled') throw new TRPCError({ code: 'PRECONDITION_FAILED', message: CANCELLED_NOT_PAYABLE });
      return markOrderPaid(trx, ctx.config, input.id);
    });
    if (!changed) throw new TRPCError({ code: 'CONFLICT', message: NOT_AWAITING_PAYMENT });
    return getOrder(ctx.db, input.id);
  }),

  /**
   * Gives a paid order's money back in full: through the provider for a card payment (its own
   * idempotency key makes a second click one refund), then marked refunded with its email.
   */
  refund: adminProcedure.input(orderGetInput).mutation(async ({ ctx, input }) => {
    const order = await ctx.db
      .selectFrom('orders')
      .select(['id', 'payment_provider', 'payment_status', 'payment_intent_id'])
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!order) throw notFound('Order');
    if (order.payment_status !== 'paid') throw new TRPCError({ code: 'CONFLICT', message: NOT_REFUNDABLE });
    if (order.payment_provider !== 'manual') {
      if (order.payment_provider !== ctx.payments.name) {
        throw new TRPCError({
          code: 'PRECONDITION_FAILED',
          message: `This order was paid through ${order.payment_provider}, which this store no longer uses`,
        });
      }
      await ctx.payments.refund({ id: order.id, paymentIntentId: order.payment_intent_id });
    }
    await ctx.db.transaction().execute((trx) => markOrderRefunded(trx, ctx.config, order.id));
    return getOrder(ctx.db, input.id);
  }),

  setTrackingNumber: adminProcedure.input(orderSetTrackingInput).mutation(async ({ ctx, input }) => {
    const result = await ctx.db.transaction().execute((trx) => setOrderTrackingNumber(trx, ctx.config, input.id, input.trackingNumber));
    assertFound(result, 'Order');
    return getOrder(ctx.db, input.id);
  }),

  setItemPrintStatus: adminProcedure.input(orderItemSetPrintStatusInput).mutation(async ({ ctx, input }) => {
    const updated = await ctx.db
      .updateTable('order_items')
      .set({ print_status: input.printStatus, updated_at: sql<string>`now()` })
      .where('id', '=', input.itemId)
      .returning('order_id')
      .executeTakeFirst();
    return getOrder(ctx.db, assertFound(updated, 'Order item').order_id);
  }),
});
