import { sql } from 'kysely';
import type { Db } from '../db/database';
import { chosenCategoryNames } from '../subscriptions/queries';
import { notFound } from '../trpc/errors';

// "Download my data" (docs/adr/0025): what the store holds of one person, as one JSON document
// they can read: the account, its addresses, orders, memberships, contact messages and the
// emails the store sent them. Hashes of passwords and tokens are the store's own and stay out.

export async function exportPersonalData(db: Db, userId: string, exportedAt: Date) {
  const account = await db
    .selectFrom('users')
    .leftJoin('customers', 'customers.id', 'users.id')
    .select([
      'users.id',
      'users.email',
      'users.email_confirmed_at',
      'users.last_sign_in_at',
      'users.created_at',
      'customers.first_name',
      'customers.last_name',
      'customers.phone',
      'customers.shipping_address',
      'customers.billing_address',
      'customers.is_admin',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!account) throw notFound('Account');
  const email = account.email;
  // Their orders: the account's, and those placed as a guest with its address once the address is
  // proven theirs (such orders join the account at its next sign-in anyway).
  const theirs = sql<boolean>`(orders.customer_id = ${userId} or (${account.email_confirmed_at !== null} and lower(orders.guest_email) = lower(${email})))`;

  const [orders, items, memberships, cycles, contactMessages, emails] = await Promise.all([
    db
      .selectFrom('orders')
      .select([
        'id',
        'order_number',
        'created_at',
        'status',
        'payment_status',
        'payment_provider',
        'subtotal',
        'shipping_cost',
        'tax',
        'total',
        'shipping_address',
        'tracking_number',
        'paid_at',
      ])
      .where(theirs)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('order_items')
      .innerJoin('orders', 'orders.id', 'order_items.order_id')
      .select([
        'order_items.order_id',
        'order_items.product_name',
        'order_items.size',
        'order_items.quantity',
        'order_items.unit_price',
        'order_items.total_price',
      ])
      .where(theirs)
      .orderBy('order_items.created_at')
      .orderBy('order_items.id')
      .execute(),
    db
      .selectFrom('subscriptions')
      .innerJoin('subscription_plans', 'subscription_plans.id', 'subscriptions.plan_id')
      .select([
        'subscriptions.id',
        'subscription_plans.name as plan',
        'subscriptions.status',
        'subscriptions.size',
        'subscriptions.price',
        'subscriptions.billing_interval',
        'subscriptions.payment_provider',
        'subscriptions.shipping_address',
        'subscriptions.next_cycle_on',
        'subscriptions.paused_until',
        'subscriptions.cancel_at',
        'subscriptions.cancel_reason',
        'subscriptions.cancelled_at',
        'subscriptions.created_at',
      ])
      .select(chosenCategoryNames)
      .where('subscriptions.customer_id', '=', userId)
      .where('subscriptions.status', '<>', 'incomplete')
      .orderBy('subscriptions.created_at')
      .execute(),
    db
      .selectFrom('subscription_cycles')
      .innerJoin('subscriptions', 'subscriptions.id', 'subscription_cycles.subscription_id')
      .leftJoin('orders', 'orders.id', 'subscription_cycles.order_id')
      .select([
        'subscription_cycles.subscription_id',
        'subscription_cycles.cycle_start',
        'subscription_cycles.outcome',
        'orders.order_number',
      ])
      .where('subscriptions.customer_id', '=', userId)
      .orderBy('subscription_cycles.cycle_start')
      .execute(),
    db
      .selectFrom('contact_submissions')
      .select(['name', 'email', 'subject', 'message', 'status', 'created_at'])
      .where(sql<boolean>`lower(email) = lower(${email})`)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('email_queue')
      // Without their text: emailed links (a password reset's, say) sign in, and a download may be shared.
      .select(['to_email', 'subject', 'status', 'created_at', 'sent_at'])
      .where(sql<boolean>`lower(to_email) = lower(${email})`)
      .orderBy('created_at')
      .execute(),
  ]);

  return {
    exported_at: exportedAt.toISOString(),
    account: {
      id: account.id,
      email,
      email_confirmed_at: account.email_confirmed_at,
      created_at: account.created_at,
      last_sign_in_at: account.last_sign_in_at,
      first_name: account.first_name ?? '',
      last_name: account.last_name ?? '',
      phone: account.phone ?? '',
      is_admin: account.is_admin ?? false,
    },
    addresses: { shipping: account.shipping_address, billing: account.billing_address },
    orders: orders.map(({ id, ...order }) => ({
      ...order,
      items: items.filter((item) => item.order_id === id).map(({ order_id: _order, ...item }) => item),
    })),
    memberships: memberships.map(({ id, category_names, ...membership }) => ({
      ...membership,
      categories: category_names ?? [],
      cycles: cycles.filter((cycle) => cycle.subscription_id === id).map(({ subscription_id: _membership, ...cycle }) => cycle),
    })),
    contact_messages: contactMessages,
    emails,
  };
}

export type PersonalData = Awaited<ReturnType<typeof exportPersonalData>>;
