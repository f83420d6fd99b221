import { sql } from 'kysely';
import { generatePassword } from '../auth/admin';
import { hashPassword } from '../auth/password';
import type { Db } from '../db/database';
import { DEFAULT_SIZES, type BillingInterval, type EmailStatus } from '../../shared/constants';
import type { Storage } from '../storage/storage';
import { addCycles, dayOfMonth } from '../subscriptions/dates';
import { ARTWORK, CATEGORIES, CONTACTS, CUSTOMERS, MEMBERSHIPS, ORDERS, PLANS, PRODUCTS, type DemoOrder } from './data';
import { generateSeedImages, type SeedImages } from './images';

// Demo data for a new store: run automatically on an empty database, never twice. The marker
// row in app_meta is what makes it "never twice", even across processes starting together.

export const SEED_MARKER = 'demo_seeded_at';
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/** Seeds the demo store unless it was seeded before or already holds a catalog. True when it seeded now. */
export async function seedIfEmpty(db: Db, storage: Storage): Promise<boolean> {
  // Cheap checks first, so a normal start renders no images.
  if ((await hasMarker(db)) || (await hasCatalog(db))) return false;

  // Files are not transactional: write them before the transaction. If another process wins the
  // race below, they are left unused, which costs a few megabytes and nothing else.
  const [images, passwordHashes] = await Promise.all([
    generateSeedImages(
      storage,
      PRODUCTS.map((p) => ({
        slug: p.slug,
        palette: p.palette,
        front: p.front,
        back: p.back,
        chestPosition: p.chestPosition ?? 'full_chest',
      })),
    ),
    // Demo customers get random passwords nobody knows; an admin can still look at their accounts.
    Promise.all(CUSTOMERS.map(() => hashPassword(generatePassword()))),
  ]);

  // PGlite has a single connection: inside the transaction only `trx` may be used.
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('app_meta')
      .values({ key: SEED_MARKER, value: sql<string>`now()::text` })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!marker) return false;
    // A store someone filled in meanwhile keeps the marker too: demo data never lands in it later.
    if (await hasCatalog(trx)) return false;
    await insertDemoData(trx, images, passwordHashes, Date.now());
    return true;
  });
}

async function hasMarker(db: Db): Promise<boolean> {
  return (await db.selectFrom('app_meta').select('key').where('key', '=', SEED_MARKER).executeTakeFirst()) !== undefined;
}

async function hasCatalog(db: Db): Promise<boolean> {
  const category = await db.selectFrom('categories').select('id').limit(1).executeTakeFirst();
  const product = await db.selectFrom('products').select('id').limit(1).executeTakeFirst();
  return category !== undefined || product !== undefined;
}

async function insertDemoData(trx: Db, images: SeedImages, passwordHashes: string[], now: number): Promise<void> {
  const ago = (days: number, plusMinutes = 0) => new Date(now - days * DAY_MS + plusMinutes * MINUTE_MS);

  const categories = await trx
    .insertInto('categories')
    .values(
      CATEGORIES.map((c, i) => ({
        slug: c.slug,
        name: c.name,
        description: c.description,
        image_url: images.banners[c.slug],
        sort_order: i + 1,
        created_at: ago(120),
        updated_at: ago(120),
      })),
    )
    .returning(['id', 'slug'])
    .execute();
  const categoryId = new Map(categories.map((c) => [c.slug, c.id]));

  const products = await trx
    .insertInto('products')
    .values(
      PRODUCTS.map((p) => {
        const art = images.products.get(p.slug)!;
        const side = p.defaultSide ?? 'front';
        return {
          sku_number: p.sku,
          slug: p.slug,
          name: p.name,
          description: p.description,
          price: p.price,
          image_url: side === 'front' ? art.frontMockupUrl : art.backMockupUrl,
          front_art_url: art.frontArtUrl,
          back_art_url: art.backArtUrl,
          front_mockup_url: art.frontMockupUrl,
          back_mockup_url: art.backMockupUrl,
          default_mockup_side: side,
          chest_position: p.chestPosition ?? 'full_chest',
          available_sizes: p.sizes,
          tags: p.tags,
          is_featured: p.featured ?? false,
          is_active: p.active ?? true,
          category_id: categoryId.get(p.category)!,
          created_at: ago(p.daysAgo),
          updated_at: ago(p.daysAgo),
        };
      }),
    )
    .returning(['id', 'sku_number', 'name', 'price', 'image_url'])
    .execute();
  const productBySku = new Map(products.map((p) => [p.sku_number, p]));

  const plans = await trx
    .insertInto('subscription_plans')
    .values(
      PLANS.map((plan) => ({
        name: plan.name,
        slug: plan.slug,
        description: plan.description,
        price: plan.price,
        billing_interval: plan.interval,
        category_limit: plan.categoryLimit,
        features: plan.features,
        created_at: ago(100),
        updated_at: ago(100),
      })),
    )
    .returning(['id', 'slug', 'name', 'price', 'billing_interval'])
    .execute();

  await trx
    .insertInto('mockup_templates')
    .values({
      name: 'Classic Crew Tee',
      front_template_url: images.template.front,
      back_template_url: images.template.back,
      is_default: true,
      created_at: ago(120),
      updated_at: ago(120),
    })
    .execute();

  const customerIds = new Map<string, string>();
  for (const [i, c] of CUSTOMERS.entries()) {
    const user = await trx
      .insertInto('users')
      .values({
        email: c.email,
        password_hash: passwordHashes[i]!,
        email_confirmed_at: c.confirmed ? ago(c.joinedDaysAgo, 10) : null,
        last_sign_in_at: c.lastSignInDaysAgo === undefined ? null : ago(c.lastSignInDaysAgo),
        created_at: ago(c.joinedDaysAgo),
        updated_at: ago(c.joinedDaysAgo),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('customers')
      .values({
        id: user.id,
        email: c.email,
        first_name: c.firstName,
        last_name: c.lastName,
        phone: c.phone,
        shipping_address: JSON.stringify(c.shipping),
        billing_address: JSON.stringify(c.billing ?? c.shipping),
        created_at: ago(c.joinedDaysAgo),
        updated_at: ago(c.joinedDaysAgo),
      })
      .execute();
    customerIds.set(c.email, user.id);
  }

  const cycleOrders = await insertDemoMemberships(trx, { plans, customerIds, categoryId, now });

  // Oldest first, so order numbers (from a sequence) grow with time.
  const orderNumbers = new Map<DemoOrder, string>();
  const allOrders: (DemoOrder & Partial<CycleOrder>)[] = [...ORDERS, ...cycleOrders];
  for (const order of allOrders.sort((a, b) => b.daysAgo - a.daysAgo)) {
    const customer = CUSTOMERS.find((c) => c.email === order.customer)!;
    const { cycle } = order;
    const lines = order.items.map((item) => {
      const product = productBySku.get(item.sku)!;
      // Money in cents, so totals are exact; a club shipment's shirt costs the member's price.
      const unitCents = Math.round(Number(cycle?.price ?? product.price) * 100);
      return { item, product, unitCents, totalCents: unitCents * item.quantity };
    });
    const subtotal = (lines.reduce((sum, line) => sum + line.totalCents, 0) / 100).toFixed(2);
    const placed = ago(order.daysAgo);
    const updated = order.status === 'pending' ? placed : ago(Math.max(order.daysAgo - 2, order.daysAgo / 2));
    const row = await trx
      .insertInto('orders')
      .values({
        customer_id: customerIds.get(order.customer)!,
        status: order.status,
        payment_status: order.payment,
        subtotal,
        tax: 0,
        shipping_cost: 0,
        total: subtotal,
        tracking_number: order.tracking ?? null,
        // The demo's orders with a tracking number have shipped and told their customers of it.
        tracking_announced: order.tracking ?? null,
        shipping_address: JSON.stringify({ name: `${customer.firstName} ${customer.lastName}`, ...customer.shipping }),
        notes: order.notes ?? null,
        subscription_id: cycle?.subscriptionId ?? null,
        paid_at: order.payment === 'paid' || order.payment === 'refunded' ? placed : null,
        created_at: placed,
        updated_at: updated,
      })
      .returning(['id', 'order_number'])
      .executeTakeFirstOrThrow();
    orderNumbers.set(order, row.order_number);
    if (cycle) {
      await trx
        .insertInto('subscription_cycles')
        .values({ subscription_id: cycle.subscriptionId, cycle_start: cycle.day, outcome: 'ordered', order_id: row.id, created_at: placed })
        .execute();
    }
    // The timeline a real order of this state would have.
    await trx
      .insertInto('order_events')
      .values([
        { order_id: row.id, kind: 'placed', created_at: placed },
        ...(order.payment === 'paid' || order.payment === 'refunded'
          ? [{ order_id: row.id, kind: 'paid' as const, created_at: placed }]
          : []),
        ...(order.status === 'pending' ? [] : [{ order_id: row.id, kind: order.status, created_at: updated }]),
        ...(order.payment === 'refunded' ? [{ order_id: row.id, kind: 'refunded' as const, created_at: updated }] : []),
      ])
      .execute();
    await trx
      .insertInto('order_items')
      .values(
        lines.map(({ item, product, unitCents, totalCents }) => ({
          order_id: row.id,
          product_id: product.id,
          product_name: product.name,
          product_image: product.image_url,
          size: item.size,
          quantity: item.quantity,
          unit_price: (unitCents / 100).toFixed(2),
          total_price: (totalCents / 100).toFixed(2),
          print_status: item.printStatus,
          created_at: placed,
          updated_at: item.printStatus === 'pending' ? placed : updated,
        })),
      )
      .execute();
  }

  await trx
    .insertInto('contact_submissions')
    .values(
      CONTACTS.map((c) => ({
        name: c.name,
        email: c.email,
        subject: c.subject,
        message: c.message,
        status: c.status,
        created_at: ago(c.daysAgo),
        updated_at: ago(c.status === 'new' ? c.daysAgo : c.daysAgo / 2),
      })),
    )
    .execute();

  await trx
    .insertInto('artwork_library')
    .values(
      ARTWORK.map((a) => {
        const art = images.products.get(PRODUCTS.find((p) => p.sku === a.sku)!.slug)!;
        return {
          name: a.name,
          description: a.description,
          artwork_url: a.side === 'front' ? art.frontArtUrl : art.backArtUrl,
          tags: a.tags,
          created_by: null,
          created_at: ago(a.daysAgo),
          updated_at: ago(a.daysAgo),
        };
      }),
    )
    .execute();

  await insertDemoEmails(trx, orderNumbers, ago);
}

/** A club shipment already made: the order of one cycle of a demo membership. */
type CycleOrder = DemoOrder & { cycle: { subscriptionId: string; day: string; price: string } };

/**
 * The club's members (so the dashboard and Subscribers show real figures on the first start):
 * each membership with its cycles gone by, every one shipped as the renewal engine would have
 * (a shirt of their categories in their size, at their price, paid), and its next shipment day.
 */
async function insertDemoMemberships(
  trx: Db,
  {
    plans,
    customerIds,
    categoryId,
    now,
  }: {
    plans: { id: string; slug: string; name: string; price: string; billing_interval: BillingInterval }[];
    customerIds: Map<string, string>;
    categoryId: Map<string, string>;
    now: number;
  },
): Promise<CycleOrder[]> {
  const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
  const today = dayOf(now);
  const orders: CycleOrder[] = [];
  for (const membership of MEMBERSHIPS) {
    const plan = plans.find((p) => p.slug === membership.plan)!;
    const customer = CUSTOMERS.find((c) => c.email === membership.customer)!;
    const joined = now - membership.joinedDaysAgo * DAY_MS;
    const start = dayOf(joined);
    const anchor = dayOfMonth(start);
    const days: string[] = [];
    for (let day = start; day <= today; day = addCycles(start, plan.billing_interval, days.length, anchor)) days.push(day);
    const next = addCycles(start, plan.billing_interval, days.length, anchor);
    const cancelled = membership.cancelReason !== undefined;
    const row = await trx
      .insertInto('subscriptions')
      .values({
        customer_id: customerIds.get(membership.customer)!,
        plan_id: plan.id,
        status: cancelled ? 'cancelled' : 'active',
        size: membership.size,
        category_ids: membership.categories.map((slug) => categoryId.get(slug)!),
        shipping_address: JSON.stringify({
          name: `${customer.firstName} ${customer.lastName}`,
          phone: customer.phone,
          ...customer.shipping,
        }),
        price: plan.price,
        billing_interval: plan.billing_interval,
        anchor_day: anchor,
        next_cycle_on: next,
        ...(cancelled ? { cancel_at: today, cancel_reason: membership.cancelReason, cancelled_at: new Date(now - 10 * MINUTE_MS) } : {}),
        created_at: new Date(joined),
        updated_at: new Date(cancelled ? now - 10 * MINUTE_MS : joined),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Each cycle's shirt in turn from those that fit: the engine too picks one the member has not had.
    const shirts = PRODUCTS.filter(
      (p) =>
        (p.active ?? true) &&
        (membership.categories.length === 0 || membership.categories.includes(p.category)) &&
        (p.sizes ?? DEFAULT_SIZES).includes(membership.size),
    );
    for (const [i, day] of days.entries()) {
      // Made on the cycle's day, in the morning (a few minutes ago for today's).
      const daysAgo = Math.max((now - Date.parse(`${day}T09:00:00Z`)) / DAY_MS, 5 / (24 * 60));
      const shipped = daysAgo > 12;
      orders.push({
        customer: membership.customer,
        daysAgo,
        status: shipped ? 'delivered' : 'processing',
        payment: 'paid',
        ...(shipped ? { tracking: `1Z999AA1${String(orders.length + 1).padStart(8, '0')}` } : {}),
        notes: `${plan.name}: shipment of ${day}`,
        items: [{ sku: shirts[i % shirts.length]!.sku, size: membership.size, quantity: 1, printStatus: shipped ? 'ready' : 'printing' }],
        cycle: { subscriptionId: row.id, day, price: plan.price },
      });
    }
  }
  return orders;
}

interface DemoAttempt {
  minutesAfter: number;
  code: number;
  error?: string;
}

interface DemoEmail {
  to: string;
  subject: string;
  text: string;
  status: EmailStatus;
  createdAt: Date;
  attempts: DemoAttempt[];
  /** Failed rows only: when the processor tries again. */
  nextRetryAt?: Date;
}

const MAX_RETRIES = 5;
const TEMPORARY = '451 4.7.1 Temporary local problem, please try again later';
const TIMEOUT = '451 4.4.2 Timeout while waiting for the receiving server';
const UNKNOWN_USER = '550 5.1.1 Recipient address rejected: user unknown';

/**
 * Emails in every state with their delivery attempts, as the processor leaves them: retry_count
 * counts failed attempts; a row is permanently failed after a 5xx refusal or at max_retries.
 */
async function insertDemoEmails(trx: Db, orderNumbers: Map<DemoOrder, string>, ago: (days: number, plusMinutes?: number) => Date) {
  const orderOf = (email: string, status: DemoOrder['status']) => {
    const order = ORDERS.find((o) => o.customer === email && o.status === status)!;
    return { order, number: orderNumbers.get(order)! };
  };
  const jake = orderOf('jake.rider@example.com', 'processing');
  const daniel = orderOf('daniel.brooks@example.com', 'shipped');
  const grace = orderOf('grace.thompson@example.com', 'shipped');
  const maria = orderOf('maria.alvarez@example.com', 'pending');
  const declined = orderOf('daniel.brooks@example.com', 'pending');
  const emails: DemoEmail[] = [
    {
      to: 'jake.rider@example.com',
      subject: `Order ${jake.number} confirmed`,
      text: `Hi Jake,\n\nThanks for your order ${jake.number}! We are printing your shirts now and will email you a tracking number as soon as they ship.\n`,
      status: 'sent',
      createdAt: ago(jake.order.daysAgo, 1),
      attempts: [{ minutesAfter: 0.2, code: 250 }],
    },
    {
      to: 'daniel.brooks@example.com',
      subject: `Your order ${daniel.number} has shipped`,
      text: `Hi Daniel,\n\nGood news: order ${daniel.number} is on its way. Tracking number: ${daniel.order.tracking}.\n`,
      status: 'sent',
      createdAt: ago(daniel.order.daysAgo - 2),
      attempts: [
        { minutesAfter: 0.2, code: 451, error: TEMPORARY },
        { minutesAfter: 2, code: 250 },
      ],
    },
    {
      to: 'grace.thompson@example.com',
      subject: `Your order ${grace.number} has shipped`,
      text: `Hi Grace,\n\nGood news: order ${grace.number} is on its way. Tracking number: ${grace.order.tracking}.\n`,
      status: 'sent',
      createdAt: ago(grace.order.daysAgo - 2),
      attempts: [{ minutesAfter: 0.2, code: 250 }],
    },
    {
      to: 'maria.alvarez@example.com',
      subject: `Order ${maria.number} received`,
      text: `Hi Maria,\n\nWe received your order ${maria.number} and will start printing once the payment clears.\n`,
      status: 'pending',
      createdAt: ago(0, -5),
      attempts: [],
    },
    {
      to: 'daniel.brooks@example.com',
      subject: `Payment problem with order ${declined.number}`,
      text: `Hi Daniel,\n\nYour card was declined for order ${declined.number}. Please sign in and update your payment method so we can start printing.\n`,
      status: 'pending',
      createdAt: ago(0, -2),
      attempts: [],
    },
    {
      to: 'tom.keller@example.com',
      subject: 'Confirm your email address',
      text: 'Hi Tom,\n\nWelcome! Please confirm your email address from the link we sent when you signed up.\n',
      status: 'failed',
      createdAt: ago(0, -50),
      attempts: [
        { minutesAfter: 0.2, code: 451, error: TIMEOUT },
        { minutesAfter: 2, code: 451, error: TIMEOUT },
      ],
      nextRetryAt: ago(0, 25),
    },
    {
      // A permanent (5xx) refusal ends the retries at once.
      to: 'r.simmons@example.com',
      subject: 'We received your message: Youth group order',
      text: 'Hi Ray,\n\nThanks for reaching out! We received your message and will reply within 24 hours.\n',
      status: 'permanently_failed',
      createdAt: ago(8, 1),
      attempts: [{ minutesAfter: 0.2, code: 550, error: UNKNOWN_USER }],
    },
    {
      // Temporary failures until max_retries was reached.
      to: 'linda.park@example.com',
      subject: 'We received your message: Matching tees for our charity ride',
      text: 'Hi Linda,\n\nThanks for reaching out! We received your message and will reply within 24 hours.\n',
      status: 'permanently_failed',
      createdAt: ago(1, 1),
      attempts: [0.2, 1, 3, 7, 15].map((minutesAfter) => ({ minutesAfter, code: 451, error: TIMEOUT })),
    },
  ];

  for (const email of emails) {
    const at = (minutes: number) => new Date(email.createdAt.getTime() + minutes * MINUTE_MS);
    const failures = email.attempts.filter((a) => a.code !== 250);
    const last = email.attempts.at(-1);
    const row = await trx
      .insertInto('email_queue')
      .values({
        to_email: email.to,
        subject: email.subject,
        text_body: email.text,
        status: email.status,
        retry_count: failures.length,
        max_retries: MAX_RETRIES,
        next_retry_at: email.nextRetryAt ?? null,
        last_error: failures.at(-1)?.error ?? null,
        message_id: email.status === 'sent' ? `<${crypto.randomUUID()}@demo.threadline>` : null,
        sent_at: email.status === 'sent' && last ? at(last.minutesAfter) : null,
        created_at: email.createdAt,
        updated_at: last ? at(last.minutesAfter) : email.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (email.attempts.length === 0) continue;
    await trx
      .insertInto('email_logs')
      .values(
        email.attempts.map((attempt, i) => ({
          email_queue_id: row.id,
          attempt_number: i + 1,
          status: attempt.code === 250 ? 'success' : 'failed',
          response_code: attempt.code,
          error_message: attempt.error ?? null,
          created_at: at(attempt.minutesAfter),
        })),
      )
      .execute();
  }
}
