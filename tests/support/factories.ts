import { randomBytes } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import { hashPassword } from '../../src/server/auth/password';
import type { Db } from '../../src/server/db/database';
import { dayOfMonth } from '../../src/server/subscriptions/dates';
import type {
  CategoriesTable,
  OrderItemsTable,
  OrdersTable,
  ProductsTable,
  SubscriptionPlansTable,
  SubscriptionsTable,
} from '../../src/server/db/schema';

// Valid minimal rows straight into the database, for tests about something else than creating
// them. Defaults are unique (a counter plus a random tag), so tests name only what they check.

export const DEFAULT_PASSWORD = 'secret123';

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

export interface UserOptions {
  email?: string;
  password?: string;
  /** Whether the email address is confirmed; true unless told. */
  confirmed?: boolean;
  first_name?: string;
  last_name?: string;
}

let sequence = 0;
const RUN = randomBytes(3).toString('hex');
const nextId = () => `${++sequence}-${RUN}`;

// argon2 is slow on purpose; one hash per password serves every user made with it.
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

async function createUser(db: Db, role: 'customer' | 'admin', options: UserOptions): Promise<TestUser> {
  const email = options.email ?? `${role}-${nextId()}@example.com`;
  const password = options.password ?? DEFAULT_PASSWORD;
  const { id } = await db
    .insertInto('users')
    .values({ email, password_hash: await hashOf(password), email_confirmed_at: options.confirmed === false ? null : new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('customers')
    .values({
      id,
      email,
      is_admin: role === 'admin',
      ...(options.first_name === undefined ? {} : { first_name: options.first_name }),
      ...(options.last_name === undefined ? {} : { last_name: options.last_name }),
    })
    .execute();
  return { id, email, password };
}

/** A user with a customers row, not an admin, who can sign in with `password` (DEFAULT_PASSWORD). */
export function createCustomer(db: Db, options: UserOptions = {}): Promise<TestUser> {
  return createUser(db, 'customer', options);
}

/** A user whose customers row is an admin's. */
export function createAdmin(db: Db, options: UserOptions = {}): Promise<TestUser> {
  return createUser(db, 'admin', options);
}

/** An active category, last in the order unless `sort_order` is given. */
export async function createCategory(db: Db, overrides: Partial<Insertable<CategoriesTable>> = {}): Promise<Selectable<CategoriesTable>> {
  const id = nextId();
  const last = await db
    .selectFrom('categories')
    .select((eb) => eb.fn.max('sort_order').as('n'))
    .executeTakeFirst();
  return db
    .insertInto('categories')
    .values({
      slug: `test-category-${id}`,
      name: `Test Category ${id}`,
      description: 'Tees for tests',
      // A picture the built client serves, so pages showing the category load every image.
      image_url: '/images/fallback-tee.svg',
      sort_order: (last?.n ?? 0) + 1,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An active product with front artwork, in a new category unless `category_id` is given. */
export async function createProduct(db: Db, overrides: Partial<Insertable<ProductsTable>> = {}): Promise<Selectable<ProductsTable>> {
  const id = nextId();
  const category_id = overrides.category_id ?? (await createCategory(db)).id;
  return db
    .insertInto('products')
    .values({
      sku_number: `TEST-${id}`,
      slug: `test-tee-${id}`,
      name: `Test Tee ${id}`,
      description: 'A plain tee',
      price: '20.00',
      front_art_url: '/storage/product-art/test.png',
      ...overrides,
      category_id,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An active monthly club plan at $29.00, unless `overrides` say otherwise. */
export async function createPlan(
  db: Db,
  overrides: Partial<Insertable<SubscriptionPlansTable>> = {},
): Promise<Selectable<SubscriptionPlansTable>> {
  const id = nextId();
  return db
    .insertInto('subscription_plans')
    .values({ name: `Club ${id}`, slug: `club-${id}`, price: '29.00', billing_interval: 'monthly', features: [], ...overrides })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A membership of `plan` paid by hand, size M, any theme, whose first cycle starts on `startsOn` (YYYY-MM-DD). */
export async function createMembership(
  db: Db,
  options: { customerId: string; plan: Selectable<SubscriptionPlansTable>; startsOn: string } & Partial<Insertable<SubscriptionsTable>>,
): Promise<Selectable<SubscriptionsTable>> {
  const { customerId, plan, startsOn, ...overrides } = options;
  const { first_name, last_name, ...address } = RITAS_SHIPPING;
  return db
    .insertInto('subscriptions')
    .values({
      customer_id: customerId,
      plan_id: plan.id,
      size: 'M',
      category_ids: [],
      shipping_address: JSON.stringify({ name: `${first_name} ${last_name}`, ...address }),
      price: plan.price,
      billing_interval: plan.billing_interval,
      anchor_day: dayOfMonth(startsOn),
      next_cycle_on: startsOn,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An order line without its order: what createOrder adds. */
export type OrderLine = Omit<Insertable<OrderItemsTable>, 'order_id'>;

/** An order of `customer_id` for $20.00 shipped to Austin, with the given lines (none unless given). */
export async function createOrder(
  db: Db,
  order: Partial<Insertable<OrdersTable>> & { customer_id: string },
  lines: OrderLine[] = [],
): Promise<{ id: string; order_number: string }> {
  const created = await db
    .insertInto('orders')
    .values({
      subtotal: '20.00',
      total: '20.00',
      shipping_address: { street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' },
      ...order,
    })
    .returning(['id', 'order_number'])
    .executeTakeFirstOrThrow();
  if (lines.length > 0) {
    await db
      .insertInto('order_items')
      .values(lines.map((line) => ({ ...line, order_id: created.id })))
      .execute();
  }
  return created;
}

/** A shipping address as the checkout and join forms send it. */
export const RITAS_SHIPPING = {
  first_name: 'Rita',
  last_name: 'Rider',
  phone: '',
  street: '12 Piston Way',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'USA',
};
