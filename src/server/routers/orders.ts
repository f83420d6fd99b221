import { sql } from 'kysely';
import { z } from 'zod';
import { CUSTOMER_ORDERS_PAGE_SIZE, orderByKeyInput, orderNumberInput, ordersPageInput } from '../../shared/schemas/checkout';
import { countRows } from '../db/count';
import type { Db } from '../db/database';
import { displayImages } from '../display-copies';
import { readCheckoutSettings } from '../orders/pricing';
import { trackingUrl } from '../orders/transitions';
import { guestOrderByKey } from '../orders/guests';
import { assertFound, notFound } from '../trpc/errors';
import { customerProcedure, publicProcedure, router } from '../trpc/init';
import { readPage } from '../trpc/paging';

// A customer's own orders (the authorization matrix checks nobody reads another's): every query
// is filtered by the signed-in customer, so another's order is simply not found.

const RECENT_ORDERS = 3;

const ownOrders = (db: Db, customerId: string) => db.selectFrom('orders').where('orders.customer_id', '=', customerId);

const SUMMARY_COLUMNS = [
  'orders.id',
  'orders.order_number',
  'orders.created_at',
  'orders.status',
  'orders.payment_status',
  'orders.total',
] as const;

/** Each order's number of items and its first line's picture, for the lists. */
const withItemsSummary = sql<{ item_count: number; image: string | null }>`(
  select json_build_object('item_count', coalesce(sum(quantity), 0)::int, 'image', (array_agg(product_image order by created_at, id))[1])
  from order_items where order_items.order_id = orders.id
)`;

/** The orders, each with `thumbnail`: the display image of its first line's picture. */
async function withThumbnails<T extends { items: { image: string | null } }>(db: Db, orders: T[]) {
  const imageOf = await displayImages(
    db,
    orders.map((order) => order.items.image),
  );
  return orders.map((order) => ({ ...order, thumbnail: imageOf(order.items.image) }));
}

/** One order with its lines, history and how it is paid and shipped: nothing of any account. */
async function orderDetail(db: Db, orders: ReturnType<typeof ownOrders>) {
  const order = assertFound(
    await orders
      .select([
        ...SUMMARY_COLUMNS,
        'orders.subtotal',
        'orders.shipping_cost',
        'orders.tax',
        'orders.discount_code',
        'orders.discount',
        'orders.shipping_address',
        'orders.tracking_number',
        'orders.payment_provider',
        'orders.checkout_url',
      ])
      .executeTakeFirst(),
    'Order',
  );
  const [items, events, settings] = await Promise.all([
    db
      .selectFrom('order_items')
      .select([
        'id',
        'product_id',
        'product_name',
        'product_image',
        'colour_name',
        'colour_hex',
        'size',
        'quantity',
        'unit_price',
        'total_price',
      ])
      .where('order_id', '=', order.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('order_events')
      .select(['kind', 'created_at'])
      .where('order_id', '=', order.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    readCheckoutSettings(db),
  ]);
  const imageOf = await displayImages(
    db,
    items.map((item) => item.product_image),
  );
  const { checkout_url: checkoutUrl, ...rest } = order;
  const awaitingPayment = order.payment_status === 'pending' && order.status !== 'cancelled';
  return {
    ...rest,
    items: items.map((item) => ({ ...item, image: imageOf(item.product_image) })),
    events,
    trackingUrl: order.tracking_number ? trackingUrl(settings.tracking_url_template, order.tracking_number) : null,
    // How to finish paying, while the order waits for its money.
    paymentInstructions: awaitingPayment && order.payment_provider === 'manual' ? settings.payment_instructions : null,
    paymentUrl: awaitingPayment && order.payment_provider === 'stripe' ? checkoutUrl : null,
  };
}

export const ordersRouter = router({
  /** The customer's orders, newest first, a page at a time. */
  list: customerProcedure.input(ordersPageInput).query(async ({ ctx, input }) => {
    const orders = ownOrders(ctx.db, ctx.session.user.id);
    const { items, ...pager } = await readPage(await countRows(orders), input.page, CUSTOMER_ORDERS_PAGE_SIZE, () =>
      orders
        .select([...SUMMARY_COLUMNS, withItemsSummary.as('items')])
        .orderBy('orders.created_at', 'desc')
        .orderBy('orders.id', 'desc'),
    );
    return { orders: await withThumbnails(ctx.db, items), ...pager };
  }),

  /** The last three, for My Account's Recent Orders. */
  recent: customerProcedure.query(async ({ ctx }) =>
    withThumbnails(
      ctx.db,
      await ownOrders(ctx.db, ctx.session.user.id)
        .select([...SUMMARY_COLUMNS, withItemsSummary.as('items')])
        .orderBy('orders.created_at', 'desc')
        .orderBy('orders.id', 'desc')
        .limit(RECENT_ORDERS)
        .execute(),
    ),
  ),

  /** One of the customer's orders with its lines, history and how it is paid and shipped. */
  get: customerProcedure
    .input(orderNumberInput)
    .query(({ ctx, input }) =>
      orderDetail(ctx.db, ownOrders(ctx.db, ctx.session.user.id).where('orders.order_number', '=', input.orderNumber)),
    ),

  /**
   * A guest order's page, opened with the key from its address (docs/adr/0027-guest-checkout.md):
   * the order itself and nothing else. Without its key, or with another, it is not found.
   */
  byKey: publicProcedure.input(orderByKeyInput).query(async ({ ctx, input }) => {
    const order = await guestOrderByKey(ctx.db, input.orderNumber, input.key);
    if (!order) throw notFound('Order');
    const detail = await orderDetail(ctx.db, ctx.db.selectFrom('orders').where('orders.id', '=', order.id));
    // A thank-you page offers "Create an account" while the order is a guest's, not yet in an account.
    return { ...detail, guest: order.guest };
  }),

  /** The number of one of the customer's orders by its id (the way back from the card payment page). */
  numberOf: customerProcedure.input(z.object({ id: z.uuid() })).query(async ({ ctx, input }) => {
    const order = await ownOrders(ctx.db, ctx.session.user.id)
      .select('orders.order_number')
      .where('orders.id', '=', input.id)
      .executeTakeFirst();
    return assertFound(order, 'Order').order_number;
  }),
});
