import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import {
  fulfilmentSettingsInput,
  mapProductInput,
  mapVariantInput,
  NOT_A_DRAFT,
  NOT_SENDABLE,
  NOTHING_TO_RETRY,
  PRINTFUL_NOT_CONFIGURED,
} from '../../../shared/schemas/admin-fulfilment';
import { orderGetInput } from '../../../shared/schemas/admin-orders';
import type { Db } from '../../db/database';
import type { RemoteFulfilment } from '../../fulfilment/provider';
import { PrintfulError } from '../../fulfilment/printful';
import { assertFound, notFound } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';

// Admin → Settings' Fulfilment card, the mapping of products to Printful's blanks, and the order
// detail's Send to Printful, Confirm for printing and Retry (docs/adr/0035). Sending happens in the
// fulfilment processor: these only queue, or requeue, the order's job.

const remoteOf = (remote: RemoteFulfilment | null): RemoteFulfilment => {
  if (!remote) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: PRINTFUL_NOT_CONFIGURED });
  return remote;
};

/** Puts the order's job (made if missing) back in line at `step`, due now. */
async function requeue(db: Db, orderId: string, step: 'send' | 'confirm') {
  await db
    .insertInto('fulfilment_jobs')
    .values({ order_id: orderId, step })
    .onConflict((oc) =>
      oc.column('order_id').doUpdateSet({
        step,
        status: 'pending',
        attempts: 0,
        run_after: sql<string>`now()`,
        last_error: null,
        updated_at: sql<string>`now()`,
      }),
    )
    .execute();
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export const adminFulfilmentRouter = router({
  settings: adminProcedure.query(async ({ ctx }) => {
    const row = await ctx.db.selectFrom('store_settings').select(['fulfilment_mode', 'fulfilment_shipping']).executeTakeFirstOrThrow();
    return { provider: ctx.fulfilment.name, mode: row.fulfilment_mode, shippingMethod: row.fulfilment_shipping };
  }),

  saveSettings: adminProcedure.input(fulfilmentSettingsInput).mutation(async ({ ctx, input }) => {
    await ctx.db.updateTable('store_settings').set({ fulfilment_mode: input.mode, fulfilment_shipping: input.shippingMethod }).execute();
    return { mode: input.mode, shippingMethod: input.shippingMethod };
  }),

  /** The Printful store the token opens, or why it does not. */
  testConnection: adminProcedure.mutation(async ({ ctx }) => {
    const remote = remoteOf(ctx.fulfilment.remote);
    try {
      return { ok: true as const, storeName: await remote.storeName() };
    } catch (error) {
      if (error instanceof PrintfulError) return { ok: false as const, error: error.message };
      throw error;
    }
  }),

  /** A product's Printful blank and each of its variants with the Printful variant it prints as. */
  productMapping: adminProcedure.input(mapProductInput.pick({ productId: true })).query(async ({ ctx, input }) => {
    const product = assertFound(
      await ctx.db.selectFrom('products').select('printful_product_id').where('id', '=', input.productId).executeTakeFirst(),
      'Product',
    );
    const variants = await ctx.db
      .selectFrom('product_variants')
      .innerJoin('product_colours', 'product_colours.id', 'product_variants.colour_id')
      .select([
        'product_variants.id',
        'product_variants.size',
        'product_variants.sku',
        'product_variants.is_enabled',
        'product_variants.printful_variant_id',
        'product_colours.name as colour',
      ])
      .where('product_variants.product_id', '=', input.productId)
      .orderBy('product_colours.sort_order')
      .orderBy('product_variants.sku')
      .execute();
    return { catalogProductId: product.printful_product_id, variants };
  }),

  /**
   * Links a product to a Printful blank and matches each of its variants to the blank's by colour
   * name and size; what did not match stays unmapped ("Not mapped") for the admin to fix.
   */
  mapProduct: adminProcedure.input(mapProductInput).mutation(async ({ ctx, input }) => {
    const product = assertFound(
      await ctx.db.selectFrom('products').select('id').where('id', '=', input.productId).executeTakeFirst(),
      'Product',
    );
    const catalog = input.catalogProductId === null ? [] : await remoteOf(ctx.fulfilment.remote).catalogVariants(input.catalogProductId);
    if (input.catalogProductId !== null && catalog.length === 0) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Printful has no variants for catalog product ${input.catalogProductId}` });
    }
    return ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('products').set({ printful_product_id: input.catalogProductId }).where('id', '=', product.id).execute();
      const variants = await trx
        .selectFrom('product_variants')
        .innerJoin('product_colours', 'product_colours.id', 'product_variants.colour_id')
        .select(['product_variants.id', 'product_variants.size', 'product_colours.name as colour'])
        .where('product_variants.product_id', '=', product.id)
        .execute();
      const unmatched: string[] = [];
      for (const variant of variants) {
        const match = catalog.find((c) => sameText(c.colour, variant.colour) && sameText(c.size, variant.size));
        if (!match && input.catalogProductId !== null) unmatched.push(`${variant.colour} / ${variant.size}`);
        await trx
          .updateTable('product_variants')
          .set({ printful_variant_id: match?.id ?? null })
          .where('id', '=', variant.id)
          .execute();
      }
      return { matched: variants.length - unmatched.length, unmatched };
    });
  }),

  mapVariant: adminProcedure.input(mapVariantInput).mutation(async ({ ctx, input }) => {
    const changed = await ctx.db
      .updateTable('product_variants')
      .set({ printful_variant_id: input.catalogVariantId })
      .where('id', '=', input.variantId)
      .returning('id')
      .executeTakeFirst();
    if (!changed) throw notFound('Variant');
    return { variantId: input.variantId, catalogVariantId: input.catalogVariantId };
  }),

  /** Products with a variant on offer that Printful cannot print: flagged "Not mapped" in the Products list. */
  unmappedProducts: adminProcedure.query(async ({ ctx }) => {
    const rows = await ctx.db
      .selectFrom('product_variants')
      .select('product_id')
      .distinct()
      .where('is_enabled', '=', true)
      .where('printful_variant_id', 'is', null)
      .execute();
    return rows.map((row) => row.product_id);
  }),

  /** A paid order not at Printful yet (paid before Printful was set up, or held): queued to be sent. */
  send: adminProcedure.input(orderGetInput).mutation(async ({ ctx, input }) => {
    remoteOf(ctx.fulfilment.remote);
    return ctx.db.transaction().execute(async (trx) => {
      const order = await trx
        .selectFrom('orders')
        .select(['status', 'payment_status', 'fulfilment_state', 'provider_order_id'])
        .where('id', '=', input.id)
        .forUpdate()
        .executeTakeFirst();
      if (!order) throw notFound('Order');
      const sendable =
        order.payment_status === 'paid' &&
        order.status !== 'cancelled' &&
        order.provider_order_id === null &&
        (order.fulfilment_state === null || order.fulfilment_state === 'needs_attention');
      if (!sendable) throw new TRPCError({ code: 'CONFLICT', message: NOT_SENDABLE });
      await trx.updateTable('orders').set({ fulfilment_state: 'queued', fulfilment_reason: null }).where('id', '=', input.id).execute();
      await requeue(trx, input.id, 'send');
      return { fulfilmentState: 'queued' as const };
    });
  }),

  /** The admin reviewed the draft: it goes to production once Printful knows its costs. */
  confirm: adminProcedure.input(orderGetInput).mutation(async ({ ctx, input }) => {
    remoteOf(ctx.fulfilment.remote);
    return ctx.db.transaction().execute(async (trx) => {
      const order = await trx.selectFrom('orders').select('fulfilment_state').where('id', '=', input.id).forUpdate().executeTakeFirst();
      if (!order) throw notFound('Order');
      if (order.fulfilment_state !== 'draft') throw new TRPCError({ code: 'CONFLICT', message: NOT_A_DRAFT });
      await requeue(trx, input.id, 'confirm');
      return { fulfilmentState: 'draft' as const };
    });
  }),

  /** Tries a held or failing job again now (after the admin fixed its mapping or address). */
  retry: adminProcedure.input(orderGetInput).mutation(async ({ ctx, input }) => {
    remoteOf(ctx.fulfilment.remote);
    return ctx.db.transaction().execute(async (trx) => {
      const order = await trx
        .selectFrom('orders')
        .leftJoin('fulfilment_jobs', 'fulfilment_jobs.order_id', 'orders.id')
        .select(['orders.fulfilment_state', 'orders.provider_order_id', 'fulfilment_jobs.step', 'fulfilment_jobs.last_error'])
        .where('orders.id', '=', input.id)
        .forUpdate('orders')
        .executeTakeFirst();
      if (!order) throw notFound('Order');
      // A job failing again and again (Printful unreachable, say) is tried at once instead of after its backoff.
      const failing = (order.fulfilment_state === 'queued' || order.fulfilment_state === 'draft') && order.last_error !== null;
      if (order.fulfilment_state !== 'needs_attention' && !failing) throw new TRPCError({ code: 'CONFLICT', message: NOTHING_TO_RETRY });
      const fulfilmentState = order.provider_order_id ? ('draft' as const) : ('queued' as const);
      await trx
        .updateTable('orders')
        .set({ fulfilment_state: fulfilmentState, fulfilment_reason: null })
        .where('id', '=', input.id)
        .execute();
      await requeue(trx, input.id, order.provider_order_id && order.step === 'confirm' ? 'confirm' : 'send');
      return { fulfilmentState };
    });
  }),
});
