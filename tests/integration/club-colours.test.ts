import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { saveColours } from '../../src/server/products/colours';
import { isLightHex } from '../../src/server/subscriptions/curation';
import { isLightColour, SHIRT_PALETTE } from '../../src/shared/colours';
import type { ColourChoice } from '../../src/shared/constants';
import * as messages from '../../src/shared/schemas/subscriptions';
import { callerAs, sharedTestApp } from '../support/app';
import { trpcFailure } from '../support/async';
import { renewalPass } from '../support/renewals';
import { createCategory, createCustomer, createMembership, createPlan, createProduct, RITAS_SHIPPING } from '../support/factories';

// The club's colour choice: a member accepts any shirt colour, light ones or dark ones (light by
// relative luminance, docs/adr/0030-colour-rendering.md). The curation sends a variant they
// accept in their size and the order line records it; with none, the order has no shirt and the
// store is told; joining or changing to choices no shirt fits is refused.

const t = sharedTestApp();
let now = new Date('2027-01-31T09:00:00Z');
const clock = { now: () => now };
const renew = renewalPass(t, clock);

let theme: string;
beforeEach(async () => {
  now = new Date('2027-01-31T09:00:00Z');
  // Members of earlier tests are finished with: nothing of theirs may be due in this one.
  await t.db.updateTable('subscriptions').set({ status: 'cancelled' }).execute();
  theme = (await createCategory(t.db)).id;
});

/** A product of the test's category in these colours ([name, hex, sizes switched off]). */
async function productIn(name: string, colours: [string, string, string[]?][], createdAt = new Date('2026-06-01')) {
  const product = await createProduct(t.db, { category_id: theme, name, available_sizes: ['M', 'L'], created_at: createdAt });
  await t.db.transaction().execute((trx) =>
    saveColours(
      trx,
      product.id,
      colours.map(([colourName, hex, off = []]) => ({
        name: colourName,
        hex,
        off_sizes: off as never,
        front_blank_url: null,
        back_blank_url: null,
      })),
    ),
  );
  return product;
}

async function memberChoosing(colourChoice: ColourChoice) {
  const customer = await createCustomer(t.db);
  const plan = await createPlan(t.db);
  const subscription = await createMembership(t.db, {
    customerId: customer.id,
    plan,
    startsOn: '2027-01-31',
    category_ids: [theme],
    colour_choice: colourChoice,
  });
  return { subscription, plan };
}

const linesOf = (subscriptionId: string) =>
  t.db
    .selectFrom('order_items')
    .innerJoin('orders', 'orders.id', 'order_items.order_id')
    .innerJoin('product_variants', 'product_variants.id', 'order_items.variant_id')
    .select([
      'order_items.product_name',
      'order_items.size',
      'order_items.colour_name',
      'order_items.colour_hex',
      'order_items.variant_sku',
    ])
    .select('product_variants.sku as variant_row_sku')
    .where('orders.subscription_id', '=', subscriptionId)
    .execute();

describe('light and dark', () => {
  it('decides in the database as in the code, for every palette colour and the edges', async () => {
    const hexes = [...SHIRT_PALETTE.map((colour) => colour.hex), '#000000', '#ffffff', '#959595', '#969696', '#7f7f7f'];
    const { rows } = await sql<{ hex: string; light: boolean }>`
      select hex, ${isLightHex(sql.ref('hex'))} as light from unnest(${sql.val(hexes)}::text[]) as h (hex)
    `.execute(t.db);
    expect(Object.fromEntries(rows.map((row) => [row.hex, row.light]))).toEqual(
      Object.fromEntries(hexes.map((hex) => [hex, isLightColour(hex)])),
    );
    expect(isLightColour('#ffffff') && isLightColour('#a6a7ab') && !isLightColour('#1f2a44') && !isLightColour('#b3202a')).toBe(true);
  });
});

describe('curation by colour', () => {
  it("sends the product's first colour the member accepts in their size, and the order line records the variant", async () => {
    const product = await productIn('Night Rider Tee', [
      ['White', '#ffffff'],
      ['Navy', '#1f2a44', ['M']],
      ['Black', '#1b1b1d'],
    ]);
    const dark = await memberChoosing('dark');
    const light = await memberChoosing('light');
    const any = await memberChoosing('any');
    await renew();
    // Navy comes first of the dark ones but is switched off in M: Black.
    expect(await linesOf(dark.subscription.id)).toEqual([
      {
        product_name: 'Night Rider Tee',
        size: 'M',
        colour_name: 'Black',
        colour_hex: '#1b1b1d',
        variant_sku: `${product.sku_number}-BLK-M`,
        variant_row_sku: `${product.sku_number}-BLK-M`,
      },
    ]);
    expect((await linesOf(light.subscription.id)).map((line) => line.colour_name)).toEqual(['White']);
    expect((await linesOf(any.subscription.id)).map((line) => line.colour_name)).toEqual(['White']);
  });

  it('passes over a newer product that comes in none of the colours the member accepts', async () => {
    await productIn('Older Light Tee', [['Sand', '#d8c8a8']], new Date('2026-01-01'));
    await productIn('Newer Dark Tee', [['Black', '#1b1b1d']], new Date('2026-09-01'));
    const light = await memberChoosing('light');
    await renew();
    expect((await linesOf(light.subscription.id)).map((line) => [line.product_name, line.colour_name])).toEqual([
      ['Older Light Tee', 'Sand'],
    ]);
  });

  it('places the order with no shirt when none is in the colours accepted, and tells the store so', async () => {
    // Over every category too (the curation's fallback): earlier tests' shirts leave the store.
    await t.db.updateTable('products').set({ is_active: false }).execute();
    await productIn('Dark Only Tee', [['Black', '#1b1b1d']]);
    const { subscription, plan } = await memberChoosing('light');
    await renew();
    const order = await t.db
      .selectFrom('orders')
      .select(['id', 'order_number'])
      .where('subscription_id', '=', subscription.id)
      .executeTakeFirstOrThrow();
    expect(await t.db.selectFrom('order_items').select('id').where('order_id', '=', order.id).execute()).toEqual([]);
    const notice = await t.db
      .selectFrom('email_queue')
      .select(['to_email', 'text_body'])
      .where('subject', '=', `Club order ${order.order_number} has no shirt`)
      .executeTakeFirstOrThrow();
    expect(notice.to_email).toBe(t.config.storeEmail);
    expect(notice.text_body).toContain(
      `No active shirt is made in size M in light colours, so order ${order.order_number} of ${plan.name} was placed with no shirt in it.`,
    );
  });
});

describe("the member's choice", () => {
  it('is asked on joining, shown with the membership, changed in the settings, and refused when no shirt fits', async () => {
    await productIn('Dark Only Tee', [
      ['Black', '#1b1b1d'],
      ['Navy', '#1f2a44'],
    ]);
    const plan = await createPlan(t.db, { category_limit: 1 });
    const customer = await createCustomer(t.db);
    const member = callerAs(t, customer, { clock });
    const join = (colourChoice: ColourChoice) =>
      member.subscriptions.join({ planSlug: plan.slug, size: 'L', colourChoice, categoryIds: [theme], shipping: RITAS_SHIPPING });

    expect(await trpcFailure(join('light'))).toEqual({ code: 'BAD_REQUEST', message: messages.noShirtsInSize('L', 'light') });
    expect(await t.db.selectFrom('subscriptions').select('id').where('customer_id', '=', customer.id).execute()).toEqual([]);
    expect((await trpcFailure(join('pastel' as never))).message).toContain(messages.CHOOSE_COLOURS);

    const { id } = await join('dark');
    expect((await member.subscriptions.mine())[0]).toMatchObject({ id, size: 'L', colour_choice: 'dark' });
    const [first] = await linesOf(id);
    expect(first?.colour_name).toBe('Black');

    const refused = await trpcFailure(member.subscriptions.changeChoices({ id, size: 'M', colourChoice: 'light', categoryIds: [theme] }));
    expect(refused.message).toBe(messages.noShirtsInSize('M', 'light'));
    expect((await member.subscriptions.mine())[0]).toMatchObject({ size: 'L', colour_choice: 'dark' });

    await member.subscriptions.changeChoices({ id, size: 'M', colourChoice: 'any', categoryIds: [theme] });
    expect((await member.subscriptions.mine())[0]).toMatchObject({ size: 'M', colour_choice: 'any' });
  });
});
