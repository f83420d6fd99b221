import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { processEmailQueue } from '../../src/server/email/processor';
import { createTransport } from '../../src/server/email/transport';
import { createPaymentProvider } from '../../src/server/payments';
import { storeTables } from '../../src/server/db/tables';
import { DELETED_CUSTOMER } from '../../src/shared/constants';
import { PASSWORD_INCORRECT } from '../../src/shared/schemas/account';
import { callerAs, callTrpc, signInHttp, signUp } from '../support/app';
import { trpcFailure } from '../support/async';
import { CONFIRMATION_SUBJECT } from '../support/email';
import { createAdmin, createCategory, createCustomer, createProduct, DEFAULT_PASSWORD, type TestUser } from '../support/factories';
import { completedSubscriptionSession, membershipInvoice } from '../support/fake-stripe';
import { sharedStripeApp } from '../support/stripe-app';

// Download my data and Delete my account, by the person and by an admin for them (docs/adr/0025).
// The person below uses the store as anyone does: an account, a profile, an order, a card
// membership, a contact message and the emails all of that sends. After the erasure, every column
// of every table, the email queue, the stored files and the outbox are searched for anything that
// was theirs, so a table added later that keeps personal data fails here without being named.

const { stripe, t, event, deliver } = sharedStripeApp();

interface Person {
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  street: string;
  city: string;
  zip: string;
  billing: { street: string; city: string; state: string; zip: string; country: string };
  message: string;
}

const shippingOf = (person: Person) => ({
  first_name: person.first_name,
  last_name: person.last_name,
  phone: person.phone,
  street: person.street,
  city: person.city,
  state: 'MT',
  zip: person.zip,
  country: 'USA',
});

/** The one who asks to be forgotten: values found nowhere else in the store. */
const PERSON: Person = {
  email: 'Quentin.Zebrowski@example.com',
  first_name: 'Quentin',
  last_name: 'Zebrowski',
  phone: '+1 406 555 0177',
  street: '77 Wisteria Lane',
  city: 'Quillfield',
  zip: '59999',
  billing: { street: '9 Ledger Row', city: 'Quillfield', state: 'MT', zip: '59998', country: 'USA' },
  message: 'Hello, my shirt shrank.',
};
/** Whatever of theirs must be gone: every value they typed in. */
const THEIRS = [PERSON.email, PERSON.last_name, PERSON.phone, PERSON.street, PERSON.billing.street, PERSON.city, 'my shirt shrank'];

let product: string;
let category: string;
let planSlug: string;
let admin: TestUser;

const payments = () => createPaymentProvider(t.config);
const as = (user: { id: string; email: string }) => callerAs(t, user, { payments: payments() });

beforeAll(async () => {
  category = (await createCategory(t.db, { name: 'Privacy Cars' })).id;
  product = (await createProduct(t.db, { category_id: category, name: 'Privacy Tee' })).id;
  planSlug = (
    await t.db
      .insertInto('subscription_plans')
      .values({ name: 'Privacy Club', slug: 'privacy-club', price: '29.00', billing_interval: 'monthly', features: [] })
      .returning('slug')
      .executeTakeFirstOrThrow()
  ).slug;
  admin = await createAdmin(t.db);
});

/** Someone who used the store as anyone does; the card membership is paid and active. */
async function personWithHistory(person: Person) {
  const { email } = person;
  // A guest order before the account existed (taken into it on confirming), and one placed signed out after.
  const asGuest = async (address: string) => {
    const placed = await callTrpc<{ orderNumber: string }>(t.app, 'checkout.placeOrder', {
      input: {
        idempotencyKey: randomUUID(),
        lines: [{ productId: product, size: 'L', quantity: 1 }],
        shipping: shippingOf(person),
        email: address,
      },
    });
    expect(placed.statusCode).toBe(200);
    return placed.data!.orderNumber;
  };
  const guestBefore = await asGuest(email);
  const cookie = await signUp(t, email);
  const guestAfter = await asGuest(email.toUpperCase());
  const user = await t.db.selectFrom('users').select(['id', 'email']).where('email', '=', email).executeTakeFirstOrThrow();
  const me = as(user);
  await me.account.saveProfile({
    first_name: person.first_name,
    last_name: person.last_name,
    phone: person.phone,
    shipping_address: { street: person.street, city: person.city, state: 'MT', zip: person.zip, country: 'USA' },
    same_as_shipping: false,
    billing_address: person.billing,
  });
  const shipping = shippingOf(person);
  const order = await me.checkout.placeOrder({
    idempotencyKey: randomUUID(),
    lines: [{ productId: product, size: 'M', quantity: 2 }],
    shipping,
  });
  const joined = await me.subscriptions.join({ planSlug, size: 'L', categoryIds: [category], shipping });
  const session = completedSubscriptionSession([...stripe.sessions.values()].find((s) => s.url === joined.redirectUrl)!);
  expect((await deliver(event('checkout.session.completed', session))).status).toBe(200);
  const today = new Date().toISOString().slice(0, 10);
  const invoice = membershipInvoice({
    subscriptionId: joined.id,
    stripeSubscription: session.subscription,
    periodStart: today,
    periodEnd: today,
  });
  expect((await deliver(event('invoice.paid', invoice))).status).toBe(200);
  await callTrpc(t.app, 'contact.submit', {
    input: { name: `${person.first_name} ${person.last_name}`, email: email.toUpperCase(), subject: 'Sizing', message: person.message },
  });
  // Some of their emails went out (into the outbox folder, the store's mail without a mail server).
  await processEmailQueue(t.db, createTransport(t.config), { from: t.config.emailFrom, batchSize: 3 });
  return {
    user,
    cookie,
    orderNumber: order.orderNumber,
    guestOrders: [guestBefore, guestAfter],
    membership: joined.id,
    stripeSubscription: session.subscription,
  };
}

/** Every place a value could be left: each row of every table (all columns, as text), and every file the store wrote. */
async function placesHolding(value: string): Promise<string[]> {
  const needle = value.toLowerCase();
  const found: string[] = [];
  for (const table of await storeTables(t.db)) {
    const { rows } = await sql<{ row: string }>`select t::text as row from ${sql.table(table)} t`.execute(t.db);
    if (rows.some(({ row }) => row.toLowerCase().includes(needle))) found.push(`table ${table}`);
  }
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const full = path.join(dir, entry.name);
          return entry.isDirectory() ? walk(full) : [full];
        })
      : [];
  for (const file of walk(t.config.dataDir)) {
    if (fs.readFileSync(file).toString('latin1').toLowerCase().includes(needle))
      found.push(`file ${path.relative(t.config.dataDir, file)}`);
  }
  return found;
}

describe('Download my data', () => {
  it('gives the person, and an admin for them, their account, addresses, orders, memberships, contact messages and emails', async () => {
    const person: Person = {
      email: 'dora.exportova@example.com',
      first_name: 'Dora',
      last_name: 'Exportova',
      phone: '+1 406 555 0123',
      street: '5 Export Way',
      city: 'Downloadton',
      zip: '59001',
      billing: { street: '6 Export Way', city: 'Downloadton', state: 'MT', zip: '59002', country: 'USA' },
      message: 'Please send me my data.',
    };
    const { user, orderNumber, guestOrders } = await personWithHistory(person);
    const data = await as(user).account.exportData();
    // Their guest orders too: the one taken into the account, and the one placed signed out since.
    expect(data.orders.map((order) => order.order_number)).toEqual(expect.arrayContaining(guestOrders));
    expect(data.account).toMatchObject({ email: person.email, first_name: 'Dora', last_name: 'Exportova', phone: person.phone });
    expect(data.addresses.billing).toEqual(person.billing);
    expect(data.addresses.shipping).toMatchObject({ street: person.street, city: person.city });
    expect(data.orders.map((order) => order.order_number)).toContain(orderNumber);
    const placed = data.orders.find((order) => order.order_number === orderNumber)!;
    expect(placed.items).toEqual([expect.objectContaining({ product_name: 'Privacy Tee', size: 'M', quantity: 2 })]);
    expect(placed.shipping_address).toMatchObject({ name: 'Dora Exportova', street: person.street });
    expect(data.memberships).toEqual([
      expect.objectContaining({ plan: 'Privacy Club', status: 'active', size: 'L', categories: ['Privacy Cars'] }),
    ]);
    expect(data.memberships[0]!.cycles).toEqual([expect.objectContaining({ outcome: 'ordered' })]);
    expect(data.contact_messages).toEqual([expect.objectContaining({ subject: 'Sizing', message: person.message })]);
    expect(data.emails.some((sent) => sent.subject.startsWith(CONFIRMATION_SUBJECT))).toBe(true);
    // Nothing of the store's secrets: no hashes, and no emailed link (the emails are listed without their text).
    expect(JSON.stringify(data)).not.toMatch(/password|token|secret/i);

    expect(await callerAs(t, admin).admin.customers.exportData({ userId: user.id })).toEqual({
      ...data,
      exported_at: expect.any(String) as string,
    });
    expect((await trpcFailure(as(await createCustomer(t.db)).admin.customers.exportData({ userId: user.id }))).code).toBe('FORBIDDEN');
  });
});

describe('Delete my account', () => {
  it('asks for the password, then ends the membership at Stripe, every session and everything personal; orders stay as "Deleted customer"', async () => {
    const bystander = await createCustomer(t.db, { first_name: 'Bea', last_name: 'Stander' });
    await as(bystander).checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [{ productId: product, size: 'S', quantity: 1 }],
      shipping: { ...shippingOf(PERSON), first_name: 'Bea', last_name: 'Stander', street: '1 Other St', city: 'Elsewhere', phone: '' },
    });
    const { user, cookie, orderNumber, guestOrders, membership, stripeSubscription } = await personWithHistory(PERSON);
    const otherSession = await signInHttp(t.app, PERSON.email);
    for (const value of THEIRS) expect(await placesHolding(value)).not.toEqual([]);

    const wrong = await callTrpc(t.app, 'account.deleteAccount', { input: { password: 'not-my-password' }, cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.error?.data.fieldErrors).toEqual({ password: [PASSWORD_INCORRECT] });
    expect(await t.db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()).toBeDefined();

    const deleted = await callTrpc(t.app, 'account.deleteAccount', { input: { password: DEFAULT_PASSWORD }, cookie });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.setCookies.join()).toMatch(/session=;/);

    // Stripe bills no more.
    expect(stripe.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${stripeSubscription}`)).toBe(true);
    expect(
      await t.db
        .selectFrom('subscriptions')
        .select(['status', 'customer_id', 'cancel_reason'])
        .where('id', '=', membership)
        .executeTakeFirst(),
    ).toEqual({
      status: 'cancelled',
      customer_id: null,
      cancel_reason: DELETED_CUSTOMER,
    });
    // Signed out everywhere, and the account is gone.
    for (const session of [cookie, otherSession])
      expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie: session })).data).toBeNull();
    const signIn = await callTrpc(t.app, 'auth.signIn', { input: { email: PERSON.email, password: DEFAULT_PASSWORD } });
    expect({ status: signIn.statusCode, session: signIn.cookies.session }).toEqual({ status: 400, session: undefined });

    // The order is kept for the books, for no one.
    const order = await callerAs(t, admin).admin.orders.list({ status: 'all', page: 1 });
    const kept = order.orders.find((o) => o.order_number === orderNumber)!;
    expect(kept).toMatchObject({ customer_email: null, customer_first_name: null, total: '40.00' });
    const detail = await callerAs(t, admin).admin.orders.get({ id: kept.id });
    expect(detail.shipping_address).toEqual({
      name: DELETED_CUSTOMER,
      phone: '',
      street: '',
      city: '',
      state: '',
      zip: '',
      country: 'USA',
    });
    expect(detail.items).toHaveLength(1);
    // So are their guest orders, the one in the account and the one placed signed out, which no key opens any more.
    const guests = await t.db
      .selectFrom('orders')
      .select(['customer_id', 'guest_email', 'access_key', sql<string>`shipping_address->>'name'`.as('name')])
      .where('order_number', 'in', guestOrders)
      .execute();
    expect(guests).toEqual([
      { customer_id: null, guest_email: null, access_key: null, name: DELETED_CUSTOMER },
      { customer_id: null, guest_email: null, access_key: null, name: DELETED_CUSTOMER },
    ]);

    // Nothing of theirs anywhere: tables (the email queue included), stored files, the outbox.
    for (const value of THEIRS) expect({ value, places: await placesHolding(value) }).toEqual({ value, places: [] });
    // Someone else's data is untouched.
    expect(await placesHolding('1 Other St')).toEqual(['table orders']);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', bystander.id).executeTakeFirst()).toBeDefined();
  });

  it("is refused to the store's last admin, and an admin can carry it out for a customer", async () => {
    const lone = await t.db.selectFrom('customers').select('id').where('is_admin', '=', true).execute();
    expect(lone.map((row) => row.id)).toEqual([admin.id]);
    const refused = await trpcFailure(as(admin).account.deleteAccount({ password: DEFAULT_PASSWORD }));
    expect(refused).toMatchObject({ code: 'CONFLICT', message: 'Cannot remove the last admin: make another admin first' });

    const customer = await createCustomer(t.db, { first_name: 'Ulrike', last_name: 'Vandersloot' });
    await as(customer).checkout.placeOrder({
      idempotencyKey: randomUUID(),
      lines: [{ productId: product, size: 'S', quantity: 1 }],
      shipping: {
        ...shippingOf(PERSON),
        first_name: 'Ulrike',
        last_name: 'Vandersloot',
        street: '3 Admin Row',
        city: 'Elsewhere',
        phone: '',
      },
    });
    // A table the erasure does not know (one added later, say) that names them: nothing is erased.
    await sql`CREATE TABLE newsletter_signups (address text NOT NULL)`.execute(t.db);
    try {
      await sql`INSERT INTO newsletter_signups VALUES (${customer.email.toUpperCase()})`.execute(t.db);
      expect((await trpcFailure(callerAs(t, admin).admin.customers.deleteAccount({ userId: customer.id }))).code).toBe(
        'INTERNAL_SERVER_ERROR',
      );
      expect(await placesHolding('Vandersloot')).toEqual(['table customers', 'table orders']);
    } finally {
      await sql`DROP TABLE newsletter_signups`.execute(t.db);
    }
    expect(await callerAs(t, admin).admin.customers.deleteAccount({ userId: customer.id })).toEqual({
      userId: customer.id,
      email: customer.email,
    });
    expect(await placesHolding('Vandersloot')).toEqual([]);
    expect(await placesHolding(customer.email)).toEqual([]);
    expect((await trpcFailure(callerAs(t, admin).admin.customers.deleteAccount({ userId: customer.id }))).code).toBe('NOT_FOUND');
  });
});
