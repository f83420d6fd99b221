import { beforeEach, describe, expect, it } from 'vitest';
import { INVALID_SLUG } from '../../src/shared/schemas/admin-categories';
import * as messages from '../../src/shared/schemas/admin-plans';
import type { PlanInput } from '../../src/shared/schemas/admin-plans';
import { routerOverHttp, sharedCallers, sharedTestApp } from '../support/app';
import { trpcFailure } from '../support/async';
import { emptyTables } from '../support/db';
import { createCustomer } from '../support/factories';

// admin.plans.*: every plan listed for admins, the modal's rules (slug normalised, features
// trimmed, price in cents), activate, edit, delete. Through callers; over HTTP where a test
// checks the status code or the errorFormatter's message and field errors.

const t = sharedTestApp();
const as = sharedCallers(t);
beforeEach(() => emptyTables(t.db, 'subscriptions', 'subscription_plans'));

const http = routerOverHttp(t, 'admin.plans', { cookie: () => as.cookies.admin, queries: ['list'] });
const plans = () => as.admin.admin.plans;

/** A valid plan; overrides may make it invalid (for the refusals). */
const plan = (overrides: Record<string, unknown> = {}): PlanInput => ({
  name: 'Monthly Tee',
  slug: 'monthly-tee',
  description: 'One tee a month',
  price: 29,
  billing_interval: 'monthly',
  category_limit: 1,
  is_active: true,
  features: ['One tee'],
  ...(overrides as Partial<PlanInput>),
});

const create = (overrides: Record<string, unknown> = {}) => plans().create(plan(overrides));

const slugsInDb = async () => (await t.db.selectFrom('subscription_plans').select('slug').orderBy('slug').execute()).map((r) => r.slug);

describe('create', () => {
  it('stores the plan: slug lowercased with hyphens, features trimmed and blank ones dropped, price to the cent', async () => {
    const row = await create({
      name: 'Gold Club',
      slug: '  Gold  Club ',
      price: 19.99,
      features: ['  Free shipping ', '', '   ', 'Any category'],
    });
    expect(row).toMatchObject({ name: 'Gold Club', slug: 'gold-club', price: '19.99', features: ['Free shipping', 'Any category'] });
    expect(await t.db.selectFrom('subscription_plans').select(['slug', 'price', 'features']).executeTakeFirst()).toEqual({
      slug: 'gold-club',
      price: '19.99',
      features: ['Free shipping', 'Any category'],
    });
  });

  it('keeps 0 as a category limit (all categories) and accepts every interval', async () => {
    const all = await create({ slug: 'all-in', category_limit: 0, billing_interval: 'yearly', price: 0 });
    expect(all).toMatchObject({ category_limit: 0, billing_interval: 'yearly', price: '0.00' });
    expect((await create({ slug: 'quarter', billing_interval: 'quarterly' })).billing_interval).toBe('quarterly');
  });

  it.each([
    ['name', { name: '  ' }, 'Name is required'],
    ['slug', { slug: '   ' }, 'Slug is required'],
    ['slug', { slug: 'Gold_Club!' }, INVALID_SLUG],
    ['price', { price: undefined }, 'Price is required'],
    ['price', { price: -1 }, 'Price must be 0 or more'],
    ['price', { price: 9.999 }, 'Price can have at most 2 decimal places'],
    ['category_limit', { category_limit: undefined }, 'Category limit is required'],
    ['category_limit', { category_limit: -1 }, 'Category limit must be 0 or more'],
    ['category_limit', { category_limit: 1.5 }, 'Category limit must be a whole number'],
    ['billing_interval', { billing_interval: 'weekly' }, 'Choose a billing interval'],
  ])('refuses a bad %s (%j) with "%s" and stores nothing', async (field, change, message) => {
    const res = await http('create', plan(change));
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe(message);
    expect(res.error?.data.fieldErrors?.[field]).toEqual([message]);
    expect(await slugsInDb()).toEqual([]);
  });

  it('refuses a duplicate slug (after normalising) and stores nothing more', async () => {
    await create();
    const res = await http('create', plan({ slug: 'Monthly Tee', name: 'Other' }));
    expect([res.statusCode, res.error?.message]).toEqual([409, messages.PLAN_SLUG_TAKEN]);
    expect(await slugsInDb()).toEqual(['monthly-tee']);
  });
});

describe('list, edit, activate, delete', () => {
  it('lists every plan for admins, inactive ones too, cheapest first; the public page shows active ones only', async () => {
    await create({ slug: 'dear', price: 50 });
    await create({ slug: 'cheap', price: 10, is_active: false });
    const list = await plans().list();
    expect(list.map((p) => [p.slug, p.is_active])).toEqual([
      ['cheap', false],
      ['dear', true],
    ]);
    const publicPlans = await as.anonymous.subscriptions.plans();
    expect(publicPlans.map((p) => p.slug)).toEqual(['dear']);
  });

  it('edits every field with the same rules', async () => {
    const row = await create();
    const updated = await plans().update({
      id: row.id,
      updatedAt: row.updated_at,
      ...plan({
        name: 'Quarterly Pack',
        slug: 'Quarterly Pack',
        price: 79.5,
        billing_interval: 'quarterly',
        category_limit: 3,
        features: [' Three tees '],
      }),
    });
    expect(updated).toMatchObject({
      id: row.id,
      name: 'Quarterly Pack',
      slug: 'quarterly-pack',
      price: '79.50',
      billing_interval: 'quarterly',
      category_limit: 3,
      features: ['Three tees'],
    });
    const bad = await http('update', { id: row.id, updatedAt: updated.updated_at, ...plan({ price: -5 }) });
    expect(bad.error?.message).toBe('Price must be 0 or more');
    const missing = await http('update', { id: '00000000-0000-4000-8000-000000000000', updatedAt: updated.updated_at, ...plan() });
    expect([missing.statusCode, missing.error?.message]).toEqual([404, messages.PLAN_NOT_FOUND]);
    expect((await t.db.selectFrom('subscription_plans').select('price').where('id', '=', row.id).executeTakeFirst())?.price).toBe('79.50');
  });

  it('refuses an edit onto another plan’s slug', async () => {
    const a = await create({ slug: 'a' });
    await create({ slug: 'b' });
    const res = await http('update', { id: a.id, updatedAt: a.updated_at, ...plan({ slug: 'b' }) });
    expect([res.statusCode, res.error?.message]).toEqual([409, messages.PLAN_SLUG_TAKEN]);
    expect(await slugsInDb()).toEqual(['a', 'b']);
  });

  it('refuses to save a form opened before the plan was changed elsewhere, keeping that change', async () => {
    const row = await create({ name: 'Club Tee' });
    // Another admin (or tab) deactivates the plan while this form is open with it active.
    await plans().setActive({ id: row.id, is_active: false });
    const stale = await http('update', { id: row.id, updatedAt: row.updated_at, ...plan({ name: 'Club Tee, reworded' }) });
    expect([stale.statusCode, stale.error?.message]).toEqual([409, messages.PLAN_CHANGED_ELSEWHERE]);
    const stored = await t.db
      .selectFrom('subscription_plans')
      .select(['name', 'is_active'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Club Tee', is_active: false });
  });

  it('deactivates and reactivates', async () => {
    const row = await create();
    expect((await plans().setActive({ id: row.id, is_active: false })).is_active).toBe(false);
    expect((await t.db.selectFrom('subscription_plans').select('is_active').executeTakeFirst())?.is_active).toBe(false);
    expect((await plans().setActive({ id: row.id, is_active: true })).is_active).toBe(true);
    expect((await trpcFailure(plans().setActive({ id: '00000000-0000-4000-8000-000000000000', is_active: true }))).message).toBe(
      messages.PLAN_NOT_FOUND,
    );
  });

  it('deletes a plan; an unknown one is not found', async () => {
    const row = await create();
    await create({ slug: 'keep' });
    expect(await plans().delete({ id: row.id })).toEqual({ deleted: true });
    expect(await slugsInDb()).toEqual(['keep']);
    const again = await http('delete', { id: row.id });
    expect([again.statusCode, again.error?.message]).toEqual([404, messages.PLAN_NOT_FOUND]);
  });

  it('refuses to delete a plan with members, and keeps it', async () => {
    const row = await create({ slug: 'has-members' });
    const member = await createCustomer(t.db);
    await t.db
      .insertInto('subscriptions')
      .values({
        customer_id: member.id,
        plan_id: row.id,
        size: 'M',
        shipping_address: JSON.stringify({ street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'USA' }),
        price: row.price,
        billing_interval: row.billing_interval,
        anchor_day: 1,
        next_cycle_on: '2027-01-01',
      })
      .execute();
    const res = await http('delete', { id: row.id });
    expect([res.statusCode, res.error?.message]).toEqual([409, messages.PLAN_HAS_MEMBERS]);
    expect(await slugsInDb()).toContain('has-members');
  });
});

describe('permission', () => {
  it('refuses customers and anonymous callers and writes nothing', async () => {
    expect((await trpcFailure(as.customer.admin.plans.create(plan()))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as.anonymous.admin.plans.create(plan()))).code).toBe('UNAUTHORIZED');
    expect((await http('list', undefined, as.cookies.customer)).statusCode).toBe(403);
    expect(await slugsInDb()).toEqual([]);
  });
});
