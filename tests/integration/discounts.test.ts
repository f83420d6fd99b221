import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { DiscountCodesTable } from '../../src/server/db/schema';
import {
  addMoreToUse,
  CODE_ALREADY_USED,
  CODE_EXPIRED,
  CODE_NOT_VALID,
  CODE_USED_UP,
  CODE_CHARACTERS,
  CODE_TOO_LONG,
} from '../../src/shared/schemas/discounts';
import { attachGuestOrders } from '../../src/server/orders/guests';
import { toCents } from '../../src/shared/money';
import { callerFor, sharedTestApp } from '../support/app';
import { queuedEmail } from '../support/email';
import { createAdmin, createCategory, createCustomer, createProduct, RITAS_SHIPPING, type TestUser } from '../support/factories';

// Discount codes at checkout on the database the suite runs on: every refusal in the shopper's
// words, the rounding in whole cents, the use counted in the order's transaction (20 checkouts at
// once for the last use), once per account (a guest's order counting for their address's account),
// a use given back on cancel, $0.00 orders paid, and the discount on the order, its email and the revenue.

const t = sharedTestApp();
let buyer: TestUser;
let admin: TestUser;
let tee: string; // $19.99, category "moto"
let cap: string; // $10.00, another category
let moto: string;

const caller = (user: { id: string; email: string } | null) => callerFor(t.database, t.config, user).caller;
const line = (productId: string, quantity = 1) => ({ productId, size: 'M' as const, quantity });
const quote = (lines: ReturnType<typeof line>[], discountCode?: string, user: TestUser | null = buyer) =>
  caller(user).checkout.quote({ lines, discountCode });
const place = (lines: ReturnType<typeof line>[], discountCode: string, user = buyer) =>
  caller(user).checkout.placeOrder({ idempotencyKey: randomUUID(), lines, shipping: RITAS_SHIPPING, discountCode });

/** The words shown under the discount field for a refused call: a rule's, or the input check's. */
async function refusalOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { fields?: Record<string, string[]>; issues?: { message: string }[] } }).cause;
    const message = cause?.fields?.discountCode?.[0] ?? cause?.issues?.[0]?.message;
    if (message) return message;
    throw error;
  }
  throw new Error('expected a refusal');
}

async function code(values: Partial<Insertable<DiscountCodesTable>> & Pick<Insertable<DiscountCodesTable>, 'code' | 'kind'>) {
  return t.db.insertInto('discount_codes').values(values).returning('id').executeTakeFirstOrThrow();
}

beforeAll(async () => {
  buyer = await createCustomer(t.db);
  admin = await createAdmin(t.db);
  moto = (await createCategory(t.db)).id;
  tee = (await createProduct(t.db, { price: '19.99', category_id: moto })).id;
  cap = (await createProduct(t.db, { price: '10.00' })).id;
  // No shipping and no tax unless a test sets them: the discount's cents are plain to read.
  await t.db.updateTable('store_settings').set({ flat_shipping_rate: '0', tax_rate_percent: '0', free_shipping_threshold: null }).execute();
});

describe('pricing a discount', () => {
  it('takes a percentage per line, rounded half up: 25 % of $19.99 is $5.00', async () => {
    await code({ code: 'QUARTER', kind: 'percent', value: 25 });
    const priced = await quote([line(tee)], 'quarter');
    expect(priced).toMatchObject({ subtotal: '19.99', discount: '5.00', total: '14.99', discountCode: 'QUARTER', discountError: null });
    // Three tees: 25 % of $59.97 is $14.9925, rounded per line to $14.99.
    expect(await quote([line(tee, 3)], 'QUARTER')).toMatchObject({ discount: '14.99', total: '44.98' });
  });

  it('makes 100 % off exactly $0.00, and a fixed amount larger than the order no less', async () => {
    await code({ code: 'ALLFREE', kind: 'percent', value: 100 });
    await code({ code: 'FIFTY', kind: 'amount', value: 5_000 });
    expect(await quote([line(tee), line(cap)], 'ALLFREE')).toMatchObject({ discount: '29.99', total: '0.00' });
    expect(await quote([line(tee), line(cap)], 'FIFTY')).toMatchObject({ discount: '29.99', total: '0.00' });
  });

  it('charges tax on the discounted price, and a free-shipping code takes shipping off', async () => {
    await t.db.updateTable('store_settings').set({ flat_shipping_rate: '5.00', tax_rate_percent: '10' }).execute();
    try {
      await code({ code: 'TENOFF', kind: 'amount', value: 1_000 });
      await code({ code: 'SHIPFREE', kind: 'free_shipping' });
      // $19.99 - $10.00 = $9.99; tax 10 % = $1.00; shipping $5.00.
      expect(await quote([line(tee)], 'TENOFF')).toMatchObject({ discount: '10.00', tax: '1.00', shipping: '5.00', total: '15.99' });
      expect(await quote([line(tee)], 'SHIPFREE')).toMatchObject({ discount: '5.00', tax: '2.00', total: '21.99' });
    } finally {
      await t.db.updateTable('store_settings').set({ flat_shipping_rate: '0', tax_rate_percent: '0' }).execute();
    }
  });

  it('takes off only the lines of the chosen categories or products', async () => {
    await code({ code: 'MOTO10', kind: 'percent', value: 10, applies_to: 'categories', category_ids: [moto] });
    await code({ code: 'CAPONLY', kind: 'amount', value: 5_000, applies_to: 'products', product_ids: [cap] });
    expect(await quote([line(tee), line(cap)], 'MOTO10')).toMatchObject({ discount: '2.00', total: '27.99' });
    expect(await quote([line(tee), line(cap)], 'CAPONLY')).toMatchObject({ discount: '10.00', total: '19.99' });
    expect(await quote([line(tee)], 'CAPONLY')).toMatchObject({ discount: '0.00', discountError: CODE_NOT_VALID });
  });
});

describe('refusals', () => {
  it('says why a code cannot be used, and prices the cart without it', async () => {
    const day = 86_400_000;
    await code({ code: 'LATER', kind: 'percent', value: 10, starts_at: new Date('2099-03-05T12:00:00Z') });
    await code({ code: 'OVER', kind: 'percent', value: 10, ends_at: new Date(Date.now() - day) });
    await code({ code: 'BIGSPEND', kind: 'percent', value: 10, min_subtotal_cents: 5_000 });
    await code({ code: 'GONE', kind: 'percent', value: 10, usage_limit: 1, used_count: 1 });
    await code({ code: 'OFFNOW', kind: 'percent', value: 10, is_active: false });
    const refusal = async (discountCode: string) => (await quote([line(tee)], discountCode)).discountError;
    expect(await refusal('NOSUCH')).toBe(CODE_NOT_VALID);
    expect(await refusal('OFFNOW')).toBe(CODE_NOT_VALID);
    expect(await refusal('LATER')).toBe('This code starts on Mar 5, 2099');
    expect(await refusal('OVER')).toBe(CODE_EXPIRED);
    expect(await refusal('BIGSPEND')).toBe(addMoreToUse(5_000 - 1_999));
    expect(await refusal('BIGSPEND')).toBe('Add $30.01 more to use this code');
    expect(await refusal('GONE')).toBe(CODE_USED_UP);
    expect(await quote([line(tee)], 'GONE')).toMatchObject({ total: '19.99', discount: '0.00' });
  });

  it('refuses an empty, too long or oddly spelt code under the field', async () => {
    for (const [discountCode, message] of [
      ['x'.repeat(41), CODE_TOO_LONG],
      ['TEN OFF', CODE_CHARACTERS],
      ["x';--", CODE_CHARACTERS],
    ] as const) {
      expect(await refusalOf(quote([line(tee)], discountCode))).toBe(message);
    }
  });

  it('refuses a refused code when the order is placed, writing nothing', async () => {
    const before = await t.db.selectFrom('orders').select('id').execute();
    expect(await refusalOf(place([line(tee)], 'NOSUCH'))).toBe(CODE_NOT_VALID);
    expect(await t.db.selectFrom('orders').select('id').execute()).toHaveLength(before.length);
  });
});

describe('counting uses', () => {
  it('gives a code with one use left to exactly one of 20 checkouts at once', async () => {
    const { id } = await code({ code: 'LASTONE', kind: 'percent', value: 10, usage_limit: 1 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createCustomer(t.db)));
    const results = await Promise.all(buyers.map((user) => refusalOf(place([line(tee)], 'LASTONE', user)).catch(() => 'placed')));
    expect(results.filter((result) => result === 'placed')).toHaveLength(1);
    expect(results.filter((result) => result === CODE_USED_UP)).toHaveLength(19);
    const row = await t.db.selectFrom('discount_codes').select('used_count').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.used_count).toBe(1);
    expect(await t.db.selectFrom('orders').select('id').where('discount_code', '=', 'LASTONE').execute()).toHaveLength(1);
  });

  it('counts "once per customer" by account, whatever email the order ships to', async () => {
    await code({ code: 'WELCOME', kind: 'percent', value: 20, once_per_customer: true });
    const user = await createCustomer(t.db);
    await place([line(tee)], 'welcome', user);
    // Another address on the second order changes nothing: it is the same account.
    const again = caller(user).checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [line(tee)],
      shipping: { ...RITAS_SHIPPING, first_name: 'Someone', street: '1 Other St' },
      discountCode: 'WELCOME',
    });
    expect(await refusalOf(again)).toBe(CODE_ALREADY_USED);
    expect((await quote([line(tee)], 'WELCOME', user)).discountError).toBe(CODE_ALREADY_USED);
    // Another account may.
    await expect(place([line(tee)], 'WELCOME', await createCustomer(t.db))).resolves.toBeDefined();
  });

  it('gives the use back when an unpaid order is cancelled', async () => {
    const { id } = await code({ code: 'ONCEONLY', kind: 'amount', value: 100, usage_limit: 1 });
    const { orderNumber } = await place([line(tee)], 'ONCEONLY');
    expect((await quote([line(tee)], 'ONCEONLY')).discountError).toBe(CODE_USED_UP);
    const order = await t.db
      .selectFrom('orders')
      .select(['id', 'discount', 'total'])
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ discount: '1.00', total: '18.99' });
    await caller(admin).admin.orders.setStatus({ id: order.id, status: 'cancelled' });
    const row = await t.db.selectFrom('discount_codes').select('used_count').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.used_count).toBe(0);
    expect((await quote([line(tee)], 'ONCEONLY')).discountError).toBeNull();
  });

  it('places a $0.00 order paid, without a payment page, its lines keeping their discounts', async () => {
    await code({ code: 'ONTHEHOUSE', kind: 'percent', value: 100 });
    const placed = await place([line(tee, 2)], 'ONTHEHOUSE');
    expect(placed.redirectUrl).toBeNull();
    const order = await t.db
      .selectFrom('orders')
      .select(['id', 'payment_status', 'total', 'discount', 'discount_code'])
      .where('order_number', '=', placed.orderNumber)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ payment_status: 'paid', total: '0.00', discount: '39.98', discount_code: 'ONTHEHOUSE' });
    const lines = await t.db.selectFrom('order_items').select(['total_price', 'discount']).where('order_id', '=', order.id).execute();
    expect(lines).toEqual([{ total_price: '39.98', discount: '39.98' }]);
  });
});

describe('guests and once per customer', () => {
  const placeAsGuest = (email: string, discountCode: string) =>
    caller(null).checkout.placeOrder({ idempotencyKey: randomUUID(), email, lines: [line(tee)], shipping: RITAS_SHIPPING, discountCode });

  it("counts a guest's order for the account their address belongs to, in any letter case", async () => {
    await code({ code: 'GUESTONCE', kind: 'percent', value: 10, once_per_customer: true });
    const member = await createCustomer(t.db, { email: 'member.guest@example.com' });
    await place([line(tee)], 'GUESTONCE', member);
    // The account used it: checking out as a guest with its address does not use it again.
    expect(await refusalOf(placeAsGuest('Member.Guest@example.com', 'GUESTONCE'))).toBe(CODE_ALREADY_USED);

    // A guest's use comes first: the account then has used it.
    const other = await createCustomer(t.db, { email: 'other.guest@example.com' });
    await placeAsGuest('other.guest@example.com', 'GUESTONCE');
    expect((await quote([line(tee)], 'GUESTONCE', other)).discountError).toBe(CODE_ALREADY_USED);
  });

  it("counts a guest's use for the account they later open with that address", async () => {
    await code({ code: 'LATERACCOUNT', kind: 'percent', value: 10, once_per_customer: true });
    const { orderNumber } = await placeAsGuest('late.joiner@example.com', 'LATERACCOUNT');
    const use = await t.db
      .selectFrom('discount_uses')
      .innerJoin('orders', 'orders.id', 'discount_uses.order_id')
      .select('discount_uses.customer_id')
      .where('orders.order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    expect(use.customer_id).toBeNull();
    const joiner = await createCustomer(t.db, { email: 'late.joiner@example.com' });
    await attachGuestOrders(t.db, { ...joiner, emailConfirmed: true });
    expect((await quote([line(tee)], 'LATERACCOUNT', joiner)).discountError).toBe(CODE_ALREADY_USED);
  });
});

describe('the discount after the order', () => {
  it('shows on the order page, in the confirmation email and on the admin order detail', async () => {
    await code({ code: 'LAUNCH20', kind: 'percent', value: 20 });
    const user = await createCustomer(t.db);
    const { orderNumber, orderId } = await place([line(tee)], 'launch20', user);
    // 20 % of $19.99 is $3.998, rounded half up to $4.00.
    expect(await caller(user).orders.get({ orderNumber })).toMatchObject({
      discount_code: 'LAUNCH20',
      discount: '4.00',
      subtotal: '19.99',
      total: '15.99',
    });
    const email = await queuedEmail(t.db, user.email, `Order ${orderNumber} confirmed`);
    expect(email.text_body).toContain('Discount (LAUNCH20)');
    expect(email.text_body).toContain('−$4.00');
    expect(await caller(admin).admin.orders.get({ id: orderId })).toMatchObject({ discount_code: 'LAUNCH20', discount: '4.00' });
  });

  it("counts what was paid in the dashboard's revenue, net of the discount", async () => {
    await code({ code: 'TAKEFIVE', kind: 'amount', value: 500 });
    const before = (await caller(admin).admin.dashboard.overview()).totalRevenue;
    const { orderId } = await place([line(tee)], 'TAKEFIVE');
    await caller(admin).admin.orders.markPaid({ id: orderId });
    const after = (await caller(admin).admin.dashboard.overview()).totalRevenue;
    expect(toCents(after) - toCents(before)).toBe(1_499);
  });
});
