import { sql } from 'kysely';
import type { ShippingInput } from '../../shared/schemas/checkout';
import type { ShippingAddress } from '../../shared/constants';
import type { Db } from '../db/database';

// Who an order (or a membership's orders) goes to, shared by checkout and the subscription club.

/** Orders, each with the customer it belongs to (their email, their name): none once they erased their account. */
export const ordersWithCustomer = (db: Db) => db.selectFrom('orders').leftJoin('customers', 'customers.id', 'orders.customer_id');

/** Whom an order's emails go to: its customer, or the guest who placed it. Null once nobody is left (erased). */
export const orderEmail = sql<string | null>`coalesce(customers.email, orders.guest_email)`;

/** Every signed-in user can buy or join, including one an admin never added to customers. */
export async function ensureCustomerRow(db: Db, user: { id: string; email: string }): Promise<void> {
  await db
    .insertInto('customers')
    .values({ id: user.id, email: user.email })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** The shipping form's fields as the address stored on an order or membership (the name in one line). */
export function shippingAddressOf(shipping: Required<ShippingInput>): ShippingAddress {
  return {
    name: `${shipping.first_name} ${shipping.last_name}`,
    phone: shipping.phone,
    street: shipping.street,
    city: shipping.city,
    state: shipping.state,
    zip: shipping.zip,
    country: shipping.country,
  };
}
