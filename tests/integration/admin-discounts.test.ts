import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as messages from '../../src/shared/schemas/admin-discounts';
import { CODE_CHARACTERS, CODE_NOT_VALID, CODE_REQUIRED, CODE_TOO_LONG } from '../../src/shared/schemas/discounts';
import { routerOverHttp, sharedCallers, sharedTestApp } from '../support/app';
import { trpcFailure } from '../support/async';
import { emptyTables } from '../support/db';
import { createCategory, createProduct } from '../support/factories';

// admin.discounts.*: the form's rules and refusals (over HTTP, as the form gets them under its
// fields), every field stored as checkout reads it, the list's search, state filter and pages,
// an edit that would write over another's, and a code switched off refused at checkout.

const t = sharedTestApp();
const as = sharedCallers(t);
const http = routerOverHttp(t, 'admin.discounts', { cookie: () => as.cookies.admin, queries: ['list'] });

let category: string;
let product: string;

beforeAll(async () => {
  category = (await createCategory(t.db)).id;
  product = (await createProduct(t.db, { price: '20.00', category_id: category })).id;
  await t.db.updateTable('store_settings').set({ flat_shipping_rate: '0', tax_rate_percent: '0', free_shipping_threshold: null }).execute();
});
beforeEach(() => emptyTables(t.db, 'discount_codes'));

const valid = (code: string): messages.DiscountInput => ({
  code,
  kind: 'percent',
  percent: 20,
  amount: null,
  applies_to: 'order',
  category_ids: [],
  product_ids: [],
  min_subtotal: null,
  starts_on: '',
  ends_on: '',
  usage_limit: null,
  once_per_customer: false,
  applies_to_club: false,
  club_cycles: null,
});
const create = (input: messages.DiscountInput) => as.admin.admin.discounts.create(input);
const codesInDb = async () => (await t.db.selectFrom('discount_codes').select('code').orderBy('code').execute()).map((row) => row.code);
const quote = (discountCode: string) =>
  as.customer.checkout.quote({ lines: [{ productId: product, size: 'M', quantity: 1 }], discountCode });

describe('create', () => {
  it('stores every field as checkout reads it: cents, and whole calendar days', async () => {
    const row = await create({
      ...valid('Launch-20'),
      kind: 'amount',
      percent: null,
      amount: 7.5,
      applies_to: 'categories',
      category_ids: [category],
      min_subtotal: 15,
      starts_on: '2026-01-01',
      ends_on: '2099-12-31',
      usage_limit: 100,
      once_per_customer: true,
      applies_to_club: true,
      club_cycles: 3,
    });
    expect(row).toMatchObject({
      code: 'Launch-20',
      kind: 'amount',
      value: 750,
      applies_to: 'categories',
      category_ids: [category],
      product_ids: [],
      min_subtotal_cents: 1_500,
      starts_at: '2026-01-01T00:00:00.000Z',
      // Through the last day: it ends as the next begins.
      ends_at: '2100-01-01T00:00:00.000Z',
      usage_limit: 100,
      used_count: 0,
      once_per_customer: true,
      applies_to_club: true,
      club_cycles: 3,
      is_active: true,
      status: 'active',
    });
    // Checkout takes it as stored, typed in another case: $7.50 off $20.00.
    expect(await quote('launch-20')).toMatchObject({ discount: '7.50', total: '12.50', discountCode: 'Launch-20', discountError: null });
  });

  it('keeps only the choice the code applies to, and no cycles without club joins', async () => {
    const row = await create({ ...valid('WHOLE'), category_ids: [category], product_ids: [product], club_cycles: 4 });
    expect(row).toMatchObject({ applies_to: 'order', category_ids: [], product_ids: [], club_cycles: null, value: 20 });
    const products = await create({
      ...valid('ONE-TEE'),
      kind: 'free_shipping',
      percent: null,
      applies_to: 'products',
      product_ids: [product],
    });
    expect(products).toMatchObject({ kind: 'free_shipping', value: null, product_ids: [product] });
  });

  it.each([
    ['code', { code: '' }, CODE_REQUIRED],
    ['code', { code: 'x'.repeat(41) }, CODE_TOO_LONG],
    ['code', { code: 'TEN OFF' }, CODE_CHARACTERS],
    ['code', { code: 'CAFÉ' }, CODE_CHARACTERS],
    ['percent', { percent: 0 }, messages.PERCENT_RANGE],
    ['percent', { percent: 101 }, messages.PERCENT_RANGE],
    ['percent', { percent: 12.5 }, messages.PERCENT_RANGE],
    ['percent', { percent: null }, messages.PERCENT_RANGE],
    ['amount', { kind: 'amount', amount: -5 }, messages.NEGATIVE_AMOUNT],
    ['amount', { kind: 'amount', amount: 0 }, messages.AMOUNT_POSITIVE],
    ['min_subtotal', { min_subtotal: -1 }, messages.MIN_SUBTOTAL_NEGATIVE],
    ['ends_on', { starts_on: '2027-03-05', ends_on: '2027-03-04' }, messages.END_BEFORE_START],
    ['usage_limit', { usage_limit: 0 }, messages.USAGE_LIMIT_RANGE],
    ['club_cycles', { applies_to_club: true, club_cycles: null }, messages.CLUB_CYCLES_RANGE],
    ['category_ids', { applies_to: 'categories' }, messages.CHOOSE_CATEGORIES],
    ['product_ids', { applies_to: 'products' }, messages.CHOOSE_PRODUCTS],
  ] as const)('refuses a bad %s (%j) with "%s" under the field and stores nothing', async (field, change, message) => {
    const res = await http('create', { ...valid('GOOD'), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.error?.data.fieldErrors?.[field]).toEqual([message]);
    expect(await codesInDb()).toEqual([]);
  });

  it('refuses a code another has in any letter case, under the code field', async () => {
    await create(valid('SUMMER'));
    const res = await http('create', valid('summer'));
    expect(res.statusCode).toBe(409);
    expect(res.error?.data.fieldErrors).toEqual({ code: [messages.DISCOUNT_CODE_TAKEN] });
    expect(await codesInDb()).toEqual(['SUMMER']);
  });
});

describe('edit and switch off', () => {
  it('edits a code, keeping its uses, and refuses writing over a change made since', async () => {
    const row = await create({ ...valid('EDITME'), usage_limit: 5 });
    await t.db.updateTable('discount_codes').set({ used_count: 2 }).where('id', '=', row.id).execute();
    const edited = await as.admin.admin.discounts.update({ id: row.id, updatedAt: row.updated_at, ...valid('EDITED'), percent: 30 });
    expect(edited).toMatchObject({ code: 'EDITED', value: 30, used_count: 2, usage_limit: null });
    // The form still holds the first stamp: a second save from it is refused.
    const stale = await trpcFailure(as.admin.admin.discounts.update({ id: row.id, updatedAt: row.updated_at, ...valid('STALE') }));
    expect(stale).toEqual({ code: 'CONFLICT', message: messages.DISCOUNT_CHANGED_ELSEWHERE });
    expect(await codesInDb()).toEqual(['EDITED']);
  });

  it('refuses an edit to another code’s name, and an end before the start', async () => {
    await create(valid('TAKEN'));
    const row = await create(valid('MINE'));
    const taken = await http('update', { id: row.id, updatedAt: row.updated_at, ...valid('taken') });
    expect(taken.error?.data.fieldErrors).toEqual({ code: [messages.DISCOUNT_CODE_TAKEN] });
    const backwards = await http('update', {
      id: row.id,
      updatedAt: row.updated_at,
      ...valid('MINE'),
      starts_on: '2027-02-02',
      ends_on: '2027-02-01',
    });
    expect(backwards.error?.data.fieldErrors).toEqual({ ends_on: [messages.END_BEFORE_START] });
    expect(await codesInDb()).toEqual(['MINE', 'TAKEN']);
  });

  it('switches a code off, so checkout refuses it as not valid, and back on', async () => {
    const row = await create(valid('FLIP'));
    expect(await as.admin.admin.discounts.setActive({ id: row.id, is_active: false })).toMatchObject({ is_active: false, status: 'off' });
    expect((await quote('FLIP')).discountError).toBe(CODE_NOT_VALID);
    await as.admin.admin.discounts.setActive({ id: row.id, is_active: true });
    expect((await quote('FLIP')).discountError).toBeNull();
  });
});

describe('list', () => {
  it('searches by code and filters by state: Active, Scheduled, Expired, Used up, Off', async () => {
    await create(valid('NOW-OPEN'));
    await create({ ...valid('NEXT-YEAR'), starts_on: '2099-01-01' });
    await create({ ...valid('LAST-YEAR'), starts_on: '2020-01-01', ends_on: '2020-12-31' });
    const usedUp = await create({ ...valid('ALL-GONE'), usage_limit: 1 });
    await t.db.updateTable('discount_codes').set({ used_count: 1 }).where('id', '=', usedUp.id).execute();
    const off = await create(valid('SWITCHED'));
    await as.admin.admin.discounts.setActive({ id: off.id, is_active: false });

    const codes = async (input: { search?: string; status?: messages.DiscountFilter }) =>
      (await as.admin.admin.discounts.list(input)).items.map((row) => [row.code, row.status]);
    expect(await codes({ status: 'active' })).toEqual([['NOW-OPEN', 'active']]);
    expect(await codes({ status: 'scheduled' })).toEqual([['NEXT-YEAR', 'scheduled']]);
    expect(await codes({ status: 'expired' })).toEqual([['LAST-YEAR', 'expired']]);
    expect(await codes({ status: 'used_up' })).toEqual([['ALL-GONE', 'used_up']]);
    expect(await codes({ status: 'off' })).toEqual([['SWITCHED', 'off']]);
    // Newest first; the search matches any part of the code, in any case, its % and _ taken literally.
    expect((await codes({})).map(([code]) => code)).toEqual(['SWITCHED', 'ALL-GONE', 'LAST-YEAR', 'NEXT-YEAR', 'NOW-OPEN']);
    expect(await codes({ search: 'year' })).toEqual([
      ['LAST-YEAR', 'expired'],
      ['NEXT-YEAR', 'scheduled'],
    ]);
    expect(await codes({ search: '%' })).toEqual([]);
  });

  it('pages the codes, with the chosen products named', async () => {
    for (let n = 1; n <= messages.DISCOUNTS_PAGE_SIZE + 2; n++) {
      await create({ ...valid(`CODE${n}`), applies_to: 'products', product_ids: [product] });
    }
    const second = await as.admin.admin.discounts.list({ page: 2 });
    expect(second).toMatchObject({ total: messages.DISCOUNTS_PAGE_SIZE + 2, page: 2, pageCount: 2 });
    expect(second.items.map((row) => row.code)).toEqual(['CODE2', 'CODE1']);
    const named = await t.db.selectFrom('products').select('name').where('id', '=', product).executeTakeFirstOrThrow();
    expect(second.items[0]!.products).toEqual([{ id: product, name: named.name }]);
  });

  it('refuses a bad status filter', async () => {
    const res = await http('list', { status: 'sometimes' });
    expect(res.statusCode).toBe(400);
  });
});
