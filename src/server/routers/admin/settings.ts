import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import {
  checkoutSettingsSaveInput,
  DEFAULT_TEMPLATE_NAME,
  defaultTemplatesInput,
  sizePricingInput,
  SETTINGS_CHANGED_ELSEWHERE,
  testEmailInput,
} from '../../../shared/schemas/admin-settings';
import { timeZoneInput } from '../../../shared/schemas/admin-analytics';
import { createTransport } from '../../email/transport';
import { SIZES } from '../../../shared/constants';
import { CHECKOUT_SETTINGS_COLUMNS, readSizeSurcharges } from '../../orders/pricing';
import { adminProcedure, router } from '../../trpc/init';

const TEMPLATE_COLUMNS = [
  'id',
  'name',
  'front_template_url',
  'back_template_url',
  'front_art_position',
  'back_art_position',
  'updated_at',
] as const;

/**
 * The checkout settings the form edits, with the stamp its save carries: read in one statement,
 * so the stamp is that of the values shown.
 */
const CHECKOUT_COLUMNS = [...CHECKOUT_SETTINGS_COLUMNS, 'updated_at'] as const;

export const adminSettingsRouter = router({
  /** The store's time zone: the days of Admin → Analytics. */
  timeZone: adminProcedure.query(({ ctx }) => ctx.db.selectFrom('store_settings').select('time_zone').executeTakeFirstOrThrow()),

  /** Leaves updated_at alone: that stamp guards the checkout form. A new zone rebuilds the sales rollups in the same statement (the trigger of migration 0023). */
  saveTimeZone: adminProcedure
    .input(timeZoneInput)
    .mutation(({ ctx, input }) =>
      ctx.db.updateTable('store_settings').set({ time_zone: input.time_zone }).returning('time_zone').executeTakeFirstOrThrow(),
    ),

  /** What checkout charges (shipping, tax) and says (payment instructions, tracking link), and who takes payments. */
  checkout: adminProcedure.query(async ({ ctx }) => ({
    ...(await ctx.db.selectFrom('store_settings').select(CHECKOUT_COLUMNS).executeTakeFirstOrThrow()),
    paymentProvider: ctx.payments.name,
  })),

  /**
   * Only over the settings as the form loaded them: changed since (another tab, another admin),
   * they are not written over. The one row is there from the first migration on (inserted with
   * its defaults, never deleted), so even the first save carries a stamp, and a save that
   * matches no row can only be one whose stamp is out of date.
   */
  saveCheckout: adminProcedure.input(checkoutSettingsSaveInput).mutation(async ({ ctx, input: { updatedAt, ...input } }) => {
    const saved = await ctx.db
      .updateTable('store_settings')
      .set({
        flat_shipping_rate: input.flat_shipping_rate.toFixed(2),
        free_shipping_threshold: input.free_shipping_threshold === null ? null : input.free_shipping_threshold.toFixed(2),
        tax_rate_percent: input.tax_rate_percent.toFixed(2),
        payment_instructions: input.payment_instructions,
        tracking_url_template: input.tracking_url_template,
        ...(input.guest_checkout === undefined ? {} : { guest_checkout: input.guest_checkout }),
        updated_at: new Date(),
      })
      // To the millisecond, as timestamps leave the database (src/server/db/database.ts).
      .where(sql<string>`date_trunc('milliseconds', updated_at)`, '=', updatedAt)
      .returning(CHECKOUT_COLUMNS)
      .executeTakeFirst();
    if (!saved) throw new TRPCError({ code: 'CONFLICT', message: SETTINGS_CHANGED_ELSEWHERE });
    return { ...saved, paymentProvider: ctx.payments.name };
  }),

  /** What each size costs on top of a product's price ("Size pricing"); sizes not named cost nothing extra. */
  sizePricing: adminProcedure.query(({ ctx }) => readSizeSurcharges(ctx.db)),

  /**
   * Prices everywhere follow at once: pricing reads the setting, and the write empties the kept
   * pages. Leaves the checkout card's stamp (updated_at) alone: the two cards save independently.
   */
  saveSizePricing: adminProcedure.input(sizePricingInput).mutation(async ({ ctx, input }) => {
    const surcharges = Object.fromEntries(
      SIZES.flatMap((size) => {
        const amount = input.surcharges[size];
        return amount ? [[size, amount.toFixed(2)]] : [];
      }),
    );
    await ctx.db
      .updateTable('store_settings')
      .set({ size_surcharges: JSON.stringify(surcharges) })
      .execute();
    return readSizeSurcharges(ctx.db);
  }),

  /** The default mockup template (null until one is saved). */
  defaultTemplates: adminProcedure.query(async ({ ctx }) => {
    const row = await ctx.db.selectFrom('mockup_templates').select(TEMPLATE_COLUMNS).where('is_default', '=', true).executeTakeFirst();
    return row ?? null;
  }),

  /**
   * Updates the default template's images, keeping its art positions, or inserts one with the
   * default positions (docs/PRODUCT.md § Reads and writes "update or insert"). One statement on the one-default index, so two
   * admins saving at once never create two defaults.
   */
  saveDefaultTemplates: adminProcedure.input(defaultTemplatesInput).mutation(({ ctx, input }) =>
    ctx.db
      .insertInto('mockup_templates')
      .values({ name: DEFAULT_TEMPLATE_NAME, is_default: true, ...input })
      .onConflict((oc) =>
        oc
          .column('is_default')
          .where(sql<boolean>`is_default`)
          .doUpdateSet({
            front_template_url: input.front_template_url,
            back_template_url: input.back_template_url,
            updated_at: new Date(),
          }),
      )
      .returning(TEMPLATE_COLUMNS)
      .executeTakeFirstOrThrow(),
  ),

  /**
   * Sends one email at once through the configured transport (SMTP, or the outbox folder), not
   * through the queue: the admin is checking the mail setup itself, so the answer must be the
   * transport's own.
   */
  sendTestEmail: adminProcedure.input(testEmailInput).mutation(async ({ ctx, input }) => {
    const transport = createTransport(ctx.config);
    try {
      const result = await transport.send({ from: ctx.config.emailFrom, ...input });
      return { messageId: result.messageId || null };
    } catch (error) {
      ctx.log.warn({ err: error }, 'test email failed');
      throw new TRPCError({ code: 'BAD_GATEWAY', message: error instanceof Error ? error.message : String(error), cause: error });
    } finally {
      await transport.close();
    }
  }),
});
