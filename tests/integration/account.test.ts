import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_PHONE } from '../../src/shared/schemas/fields';
import { callTrpc, createTestApp, signUp, type TestApp } from '../support/app';
import { queuedEmailLink } from '../support/email';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const address = { street: '12 Harley Ave', city: 'Milwaukee', state: 'WI', zip: '53201' };
const profile = {
  first_name: 'Jake',
  last_name: 'Rider',
  phone: '555-0100',
  shipping_address: address,
  same_as_shipping: true,
  billing_address: { street: '', city: '', state: '', zip: '' },
};

describe('settings', () => {
  it('saves personal details and addresses, copying shipping to billing when they are the same', async () => {
    const cookie = await signUp(t, 'jake@example.com');
    const saved = await callTrpc(t.app, 'account.saveProfile', { input: profile, cookie });
    expect(saved.statusCode).toBe(200);
    const reread = await callTrpc<Record<string, unknown>>(t.app, 'account.profile', { type: 'query', cookie });
    expect(reread.data).toMatchObject({
      email: 'jake@example.com',
      first_name: 'Jake',
      last_name: 'Rider',
      phone: '555-0100',
      shipping_address: { ...address, country: 'USA' },
      billing_address: { ...address, country: 'USA' },
    });
  });

  it('keeps a separate billing address when asked to', async () => {
    const cookie = await signUp(t, 'split@example.com');
    const billing = { street: '1 Office Park', city: 'Austin', state: 'TX', zip: '73301', country: 'USA' };
    await callTrpc(t.app, 'account.saveProfile', { input: { ...profile, same_as_shipping: false, billing_address: billing }, cookie });
    const reread = await callTrpc<{ billing_address: unknown }>(t.app, 'account.profile', { type: 'query', cookie });
    expect(reread.data?.billing_address).toEqual(billing);
  });

  it('ignores the hidden billing fields while billing is the same as shipping', async () => {
    const cookie = await signUp(t, 'hidden-billing@example.com');
    // As a billing address stored before line breaks were refused would fill the hidden fields.
    const hidden = { street: '1 Old St\nSuite 2', city: 'x'.repeat(500), state: '', zip: '' };
    const saved = await callTrpc(t.app, 'account.saveProfile', { input: { ...profile, billing_address: hidden }, cookie });
    expect(saved.statusCode).toBe(200);
    const reread = await callTrpc<{ billing_address: unknown }>(t.app, 'account.profile', { type: 'query', cookie });
    expect(reread.data?.billing_address).toEqual({ ...address, country: 'USA' });
  });

  it('requires names, phone and the shipping address, and billing only when not the same', async () => {
    const cookie = await signUp(t, 'incomplete@example.com');
    const res = await callTrpc(t.app, 'account.saveProfile', {
      input: { ...profile, first_name: ' ', phone: '📞', shipping_address: { ...address, zip: '' }, same_as_shipping: false },
      cookie,
    });
    expect(res.statusCode).toBe(400);
    const fieldErrors = res.error?.data.fieldErrors;
    expect(fieldErrors?.first_name).toEqual(['First name is required']);
    expect(fieldErrors?.phone).toEqual([INVALID_PHONE]);
    // Keyed by the nested field's path, as the settings form names its fields.
    expect(fieldErrors?.['shipping_address.zip']).toEqual(['ZIP code is required']);
    expect(fieldErrors?.['billing_address.street']).toEqual(['Street address is required']);
    const reread = await callTrpc<{ first_name: string }>(t.app, 'account.profile', { type: 'query', cookie });
    expect(reread.data?.first_name).toBe('');
  });

  it('ignores any attempt to set is_admin through settings', async () => {
    const cookie = await signUp(t, 'sneaky@example.com');
    await callTrpc(t.app, 'account.saveProfile', { input: { ...profile, is_admin: true }, cookie });
    const row = await t.db.selectFrom('customers').select('is_admin').where('email', '=', 'sneaky@example.com').executeTakeFirstOrThrow();
    expect(row.is_admin).toBe(false);
    expect((await callTrpc<{ isAdmin: boolean }>(t.app, 'auth.me', { type: 'query', cookie })).data?.isAdmin).toBe(false);
  });

  it('creates the customers row when the user has none (upsert)', async () => {
    const cookie = await signUp(t, 'norow@example.com');
    await t.db.deleteFrom('customers').where('email', '=', 'norow@example.com').execute();
    const res = await callTrpc(t.app, 'account.saveProfile', { input: profile, cookie });
    expect(res.statusCode).toBe(200);
    expect(await t.db.selectFrom('customers').select('first_name').where('email', '=', 'norow@example.com').executeTakeFirst()).toEqual({
      first_name: 'Jake',
    });
  });
});

describe('password change', () => {
  it('checks the current password and the new one, then ends every other session', async () => {
    const here = await signUp(t, 'changer@example.com', 'firstpass');
    const elsewhere = `session=${(await callTrpc(t.app, 'auth.signIn', { input: { email: 'changer@example.com', password: 'firstpass' } })).cookies.session}`;

    const wrong = await callTrpc(t.app, 'account.changePassword', {
      input: { currentPassword: 'nope', password: 'secondpass' },
      cookie: here,
    });
    expect(wrong.error?.message).toBe('Current password is incorrect');
    const short = await callTrpc(t.app, 'account.changePassword', {
      input: { currentPassword: 'firstpass', password: '123' },
      cookie: here,
    });
    expect(short.error?.message).toBe('Password must be at least 6 characters long');

    const ok = await callTrpc(t.app, 'account.changePassword', {
      input: { currentPassword: 'firstpass', password: 'secondpass' },
      cookie: here,
    });
    expect(ok.statusCode).toBe(200);
    const renewed = `session=${ok.cookies.session}`;
    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie: renewed })).data).toMatchObject({ email: 'changer@example.com' });
    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie: elsewhere })).data).toBeNull();
    expect((await callTrpc(t.app, 'auth.me', { type: 'query', cookie: here })).data).toBeNull();
    const signIn = await callTrpc(t.app, 'auth.signIn', { input: { email: 'changer@example.com', password: 'secondpass' } });
    expect(signIn.statusCode).toBe(200);
  });

  it('ends the reset links mailed before the change: none can set the password afterwards', async () => {
    const cookie = await signUp(t, 'relinked@example.com', 'firstpass');
    await callTrpc(t.app, 'auth.requestPasswordReset', { input: { email: 'relinked@example.com' } });
    const token = new URL(await queuedEmailLink(t.db, 'relinked@example.com', 'Reset')).searchParams.get('token')!;

    const changed = await callTrpc(t.app, 'account.changePassword', {
      input: { currentPassword: 'firstpass', password: 'secondpass' },
      cookie,
    });
    expect(changed.statusCode).toBe(200);
    const reset = await callTrpc(t.app, 'auth.resetPassword', { input: { token, password: 'attacker1' } });
    expect(reset.error?.message).toBe('Invalid or expired reset link');
    expect((await callTrpc(t.app, 'auth.signIn', { input: { email: 'relinked@example.com', password: 'secondpass' } })).statusCode).toBe(
      200,
    );
  });
});

describe('subscription plans', () => {
  it('lists active plans cheapest first', async () => {
    await t.db
      .insertInto('subscription_plans')
      .values([
        { name: 'All Access', slug: 'all-access', price: '39.00', category_limit: 0, features: ['Every category'] },
        { name: 'Monthly Tee', slug: 'monthly-tee', price: '25.00', features: ['One tee a month'] },
        { name: 'Retired', slug: 'retired', price: '10.00', is_active: false },
        { name: 'Quarterly Box', slug: 'quarterly-box', price: '29.00', billing_interval: 'quarterly', category_limit: 2 },
      ])
      .execute();
    const res = await callTrpc<{ name: string; price: string; billing_interval: string }[]>(t.app, 'subscriptions.plans', {
      type: 'query',
    });
    expect(res.data?.map((p) => [p.name, p.price, p.billing_interval])).toEqual([
      ['Monthly Tee', '25.00', 'monthly'],
      ['Quarterly Box', '29.00', 'quarterly'],
      ['All Access', '39.00', 'monthly'],
    ]);
  });
});

describe('cart re-read', () => {
  it("reports today's price and availability, and nothing for deleted products", async () => {
    const category = await t.db
      .insertInto('categories')
      .values({ slug: 'car', name: 'Car', description: 'd', image_url: '/c.png', sort_order: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [kept, retired, gone] = await t.db
      .insertInto('products')
      .values(
        ['kept', 'retired', 'gone'].map((slug, i) => ({
          sku_number: `CART-${i}`,
          slug,
          name: slug,
          description: 'd',
          price: '20.00',
          front_art_url: '/a.png',
          category_id: category.id,
        })),
      )
      .returning('id')
      .execute();
    await t.db.updateTable('products').set({ price: '22.50' }).where('id', '=', kept!.id).execute();
    await t.db.updateTable('products').set({ is_active: false }).where('id', '=', retired!.id).execute();
    await t.db.deleteFrom('products').where('id', '=', gone!.id).execute();
    const res = await callTrpc<{ id: string; price: string; available: boolean }[]>(t.app, 'catalog.cartProducts', {
      type: 'query',
      input: { ids: [kept!.id, retired!.id, gone!.id] },
    });
    const byId = new Map(res.data!.map((p) => [p.id, p]));
    expect(byId.get(kept!.id)).toMatchObject({ price: '22.50', available: true });
    expect(byId.get(retired!.id)).toMatchObject({ available: false });
    expect(byId.has(gone!.id)).toBe(false);
  });

  it('refuses ids that are not uuids', async () => {
    const res = await callTrpc(t.app, 'catalog.cartProducts', { type: 'query', input: { ids: ['1 OR 1=1'] } });
    expect(res.statusCode).toBe(400);
  });
});
