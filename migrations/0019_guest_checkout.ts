import { sql, type Kysely } from 'kysely';

// Frozen in time: this file never imports application code.
// Guest checkout: an order may be placed with an email address instead of an account. It keeps
// that address (until it is attached to the account of the same address, or erased) and the long
// random key its page is opened with. Guest orders are budgeted per address like an account's own
// emails, counted under a hash of the address so the count names no one. The shop can turn guest
// checkout off.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE orders
      ADD COLUMN guest_email text,
      ADD COLUMN access_key text,
      -- A guest order belongs to no account (yet); once attached, the account's address is the one used.
      ADD CONSTRAINT orders_guest_has_no_customer CHECK (guest_email IS NULL OR customer_id IS NULL),
      ADD CONSTRAINT orders_access_key_length CHECK (access_key IS NULL OR length(access_key) >= 32);
    -- The orders a signing-in owner of the address takes into their account.
    CREATE INDEX orders_guest_email_idx ON orders (lower(guest_email)) WHERE guest_email IS NOT NULL;

    CREATE TABLE guest_email_budgets (
      address_hash text PRIMARY KEY,
      emails_since timestamptz NOT NULL DEFAULT now(),
      emails_sent integer NOT NULL DEFAULT 0 CHECK (emails_sent >= 0)
    );

    ALTER TABLE store_settings ADD COLUMN guest_checkout boolean NOT NULL DEFAULT true;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE store_settings DROP COLUMN guest_checkout;
    DROP TABLE guest_email_budgets;
    DROP INDEX orders_guest_email_idx;
    ALTER TABLE orders
      DROP CONSTRAINT orders_access_key_length,
      DROP CONSTRAINT orders_guest_has_no_customer,
      DROP COLUMN access_key,
      DROP COLUMN guest_email;
  `.execute(db);
}
