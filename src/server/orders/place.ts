import { createHash } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { centsToAmount } from '../../shared/money';
import { TOO_MANY_ACCOUNT_EMAILS } from '../../shared/schemas/auth';
import type { PlaceOrderInput } from '../../shared/schemas/checkout';
import type { Db } from '../db/database';
import type { PaymentProvider, StartedPayment } from '../payments/provider';
import { fieldError } from '../trpc/errors';
import { DiscountRefused, reserveDiscountUse } from './discounts';
import { priceCart, quoteAmounts, readCheckoutSettings, type DiscountRequest, type Quote } from './pricing';
import { recordOrderEvent, sendOrderConfirmation, type MailSettings } from './transitions';
import { newAccessKey, spendGuestEmail } from './guests';
import { ensureCustomerRow, shippingAddressOf } from './recipient';

// Placing an order (docs/ARCHITECTURE.md § Orders, payments and subscriptions): priced by the server, written with its line
// snapshots in one transaction, at most one order per cart submission. The submission's
// idempotency key fixes the order's id, so a retry, a double click or a second tab finds the same
// order, and a card payment session made for it is the same session at the provider too.

export interface PlacedOrder {
  orderId: string;
  orderNumber: string;
  /** Where to send the buyer to pay (a card payment), or null (paid by hand, or already paid). */
  redirectUrl: string | null;
  /** A guest order's key, which its page opens with; null for an account's order. */
  accessKey: string | null;
}

/** Who places an order: a signed-in customer, or a guest known by the address they typed. */
export type Buyer = { kind: 'customer'; id: string; email: string } | { kind: 'guest'; email: string };

export const PRICES_CHANGED = 'Prices changed while you were checking out. Please review your order and try again.';

/**
 * The order id a submission always maps to (a name-based UUID of the buyer and key): a customer by
 * their id, a guest by their address, so only the one who sent a submission finds its order again.
 */
export function orderIdFor(buyer: Buyer, idempotencyKey: string): string {
  const who = buyer.kind === 'customer' ? buyer.id : `guest:${buyer.email.trim().toLowerCase()}`;
  const hex = createHash('sha256').update(`order:${who}:${idempotencyKey}`).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function findPlaced(db: Db, orderId: string): Promise<PlacedOrder | null> {
  const order = await db
    .selectFrom('orders')
    .select(['order_number', 'status', 'payment_provider', 'payment_status', 'checkout_url', 'access_key'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return null;
  const awaitingCard = order.payment_provider === 'stripe' && order.payment_status === 'pending' && order.status !== 'cancelled';
  return { orderId, orderNumber: order.order_number, redirectUrl: awaitingCard ? order.checkout_url : null, accessKey: order.access_key };
}

/**
 * The most one order may come to: what Stripe takes in one USD payment ($999,999.99), well within
 * what the order's money columns hold. A bigger order is the shop's to arrange by hand.
 */
const MAX_ORDER_TOTAL_CENTS = 99_999_999;
export const ORDER_TOO_LARGE = 'This order is too large to place online. Please contact us to arrange it.';

/** Refuses a cart with a line that cannot be bought, naming it, or one too large to take; nothing is written. */
function assertBuyable(quote: Quote): Quote {
  if (quote.totalCents > MAX_ORDER_TOTAL_CENTS) throw fieldError('BAD_REQUEST', 'lines', ORDER_TOO_LARGE);
  const problem = quote.lines.find((line) => line.problem);
  if (problem?.problem === 'unavailable') {
    throw fieldError('BAD_REQUEST', 'lines', `"${problem.name}" is no longer available. Please remove it from your cart.`);
  }
  if (problem?.problem === 'colour_unavailable') {
    throw fieldError('BAD_REQUEST', 'lines', `"${problem.name}" is no longer available in that colour. Please remove it from your cart.`);
  }
  if (problem) {
    const colour = problem.problem === 'variant_off' && problem.colourName ? ` in ${problem.colourName}` : '';
    throw fieldError(
      'BAD_REQUEST',
      'lines',
      `"${problem.name}" is not available in size ${problem.size}${colour}. Please remove it from your cart.`,
    );
  }
  return quote;
}

/** Runs `work`; a refused discount code becomes an error on the checkout's discount field. */
async function withDiscountRefusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DiscountRefused) throw fieldError('BAD_REQUEST', 'discountCode', error.message);
    throw error;
  }
}

/** The account registered with this address, without regard to case; null when there is none. */
async function accountIdOf(db: Db, email: string): Promise<string | null> {
  const account = await db
    .selectFrom('customers')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return account?.id ?? null;
}

/** The cart priced today, with the buyer's discount code if any. */
async function priceOrder(db: Db, input: PlaceOrderInput, customerId: string | null): Promise<Quote> {
  const discount: DiscountRequest | null = input.discountCode ? { code: input.discountCode, customerId } : null;
  return assertBuyable(await withDiscountRefusals(async () => priceCart(db, input.lines, await readCheckoutSettings(db), discount)));
}

export interface PlaceOrderServices {
  db: Db;
  config: MailSettings;
  payments: PaymentProvider;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

export async function placeOrder(
  { db, config, payments, log }: PlaceOrderServices,
  buyer: Buyer,
  input: PlaceOrderInput,
): Promise<PlacedOrder> {
  const orderId = orderIdFor(buyer, input.idempotencyKey);
  const existing = await findPlaced(db, orderId);
  if (existing) return existing;

  // A card payment session is made before anything is stored: if the provider fails, no order
  // exists; if storing fails, the unused session simply expires. No transaction waits on the network.
  let started: { payment: StartedPayment; totalCents: number } | null = null;
  // "Once per customer" is counted by account: a guest's order counts for the account their address belongs to, if any.
  const buyerId = buyer.kind === 'customer' ? buyer.id : input.discountCode ? await accountIdOf(db, buyer.email) : null;
  const quoted = payments.name === 'manual' ? null : await priceOrder(db, input, buyerId);
  // An order that comes to $0.00 has nothing to pay: no payment page.
  if (quoted && quoted.totalCents > 0) {
    const quote = quoted;
    const back = `${config.publicUrl}/checkout/complete?order=${orderId}`;
    const payment = await payments.startPayment({
      orderId,
      customerEmail: buyer.email,
      lines: quote.lines.map((line) => ({
        name: line.name,
        variant: line.colourName ? `${line.colourName}, ${line.size}` : line.size,
        quantity: line.quantity,
        unitCents: line.unitCents,
        discountCents: line.discountCents,
      })),
      shippingCents: quote.discount?.kind === 'free_shipping' ? 0 : quote.shippingCents,
      taxCents: quote.taxCents,
      successUrl: `${back}&payment=done`,
      cancelUrl: `${back}&payment=cancelled`,
    });
    if (payment) started = { payment, totalCents: quote.totalCents };
  }

  return db.transaction().execute(async (trx) => {
    // Submissions with one key wait here for each other; the first writes, the rest find its order.
    await sql`select pg_advisory_xact_lock(hashtextextended(${orderId}, 0))`.execute(trx);
    const placed = await findPlaced(trx, orderId);
    if (placed) return placed;

    // The products stay as priced until the order is stored: an admin's delete or change waits for
    // it (and a delete then finds the order's lines), or, made first, is what the order is priced by.
    const productIds = [...new Set(input.lines.map((line) => line.productId))];
    await trx.selectFrom('products').select('id').where('id', 'in', productIds).forShare().execute();
    const quote = await priceOrder(trx, input, buyerId);
    const amounts = quoteAmounts(quote);
    const free = quote.totalCents === 0;
    const shownOtherTotal = input.expectedTotal !== undefined && input.expectedTotal !== amounts.total;
    if (shownOtherTotal || (started && started.totalCents !== quote.totalCents)) {
      throw new TRPCError({ code: 'CONFLICT', message: PRICES_CHANGED });
    }
    const { shipping } = input;
    // A guest's order emails an address nobody proved: at most an hour's budget of them, as for an unconfirmed account.
    if (buyer.kind === 'guest' && !(await spendGuestEmail(trx, buyer.email, log))) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: TOO_MANY_ACCOUNT_EMAILS });
    }

    if (buyer.kind === 'customer') await ensureCustomerRow(trx, buyer);
    const accessKey = buyer.kind === 'guest' ? newAccessKey() : null;
    const order = await trx
      .insertInto('orders')
      .values({
        id: orderId,
        customer_id: buyer.kind === 'customer' ? buyer.id : null,
        guest_email: buyer.kind === 'guest' ? buyer.email.trim() : null,
        access_key: accessKey,
        idempotency_key: input.idempotencyKey,
        payment_provider: payments.name,
        ...(free ? { payment_status: 'paid' as const, paid_at: new Date() } : {}),
        discount_code: quote.discount?.code ?? null,
        discount: amounts.discount,
        subtotal: amounts.subtotal,
        shipping_cost: amounts.shipping,
        tax: amounts.tax,
        total: amounts.total,
        shipping_address: JSON.stringify(shippingAddressOf(shipping)),
        checkout_session_id: started?.payment.sessionId ?? null,
        checkout_url: started?.payment.url ?? null,
      })
      .returning('order_number')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('order_items')
      .values(
        quote.lines.map((line) => ({
          order_id: orderId,
          product_id: line.productId,
          product_name: line.name,
          product_image: line.imageUrl,
          size: line.size,
          variant_id: line.variantId,
          variant_sku: line.sku,
          colour_name: line.colourName,
          colour_hex: line.colourHex,
          quantity: line.quantity,
          unit_price: centsToAmount(line.unitCents),
          total_price: centsToAmount(line.totalCents),
          discount: centsToAmount(line.discountCents),
        })),
      )
      .execute();
    // Counted here, in the order's transaction: of checkouts at once for a code's last use, one gets it.
    if (quote.discount) await withDiscountRefusals(() => reserveDiscountUse(trx, quote.discount!, orderId, buyerId));
    await recordOrderEvent(trx, orderId, 'placed');
    if (free) await recordOrderEvent(trx, orderId, 'paid');
    // A hand-paid order is confirmed now, with how to pay; a card-paid one once the money is there;
    // one that came to $0.00 is paid already.
    if (payments.name === 'manual' || free) await sendOrderConfirmation(trx, config, orderId, free);

    // A guest has no account to save to.
    if (input.saveToAccount && buyer.kind === 'customer') {
      const address = { street: shipping.street, city: shipping.city, state: shipping.state, zip: shipping.zip, country: shipping.country };
      await trx
        .updateTable('customers')
        .set({
          first_name: shipping.first_name,
          last_name: shipping.last_name,
          ...(shipping.phone ? { phone: shipping.phone } : {}),
          shipping_address: JSON.stringify(address),
          updated_at: new Date(),
        })
        .where('id', '=', buyer.id)
        .execute();
    }
    return { orderId, orderNumber: order.order_number, redirectUrl: started?.payment.url ?? null, accessKey };
  });
}
