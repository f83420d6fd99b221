import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import {
  checkoutSettingsInput,
  DEFAULT_TEMPLATE_NAME,
  defaultTemplatesInput,
  testEmailInput,
} from '../../../shared/schemas/admin-settings';
import { readCheckoutSettings } from '../../orders/pricing';
import { createTransport } from '../../email/transport';
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

export const adminSettingsRouter = router({
  /** What checkout charges (shipping, tax) and says (payment instructions, tracking link), and who takes payments. */
  checkout: adminProcedure.query(async ({ ctx }) => ({ ...(await readCheckoutSettings(ctx.db)), paymentProvider: ctx.payments.name })),

  saveCheckout: adminProcedure.input(checkoutSettingsInput).mutation(async ({ ctx, input }) => {
    await ctx.db
      .updateTable('store_settings')
      .set({
        flat_shipping_rate: input.flat_shipping_rate.toFixed(2),
        free_shipping_threshold: input.free_shipping_threshold === null ? null : input.free_shipping_threshold.toFixed(2),
        tax_rate_percent: input.tax_rate_percent.toFixed(2),
        payment_instructions: input.payment_instructions,
        tracking_url_template: input.tracking_url_template,
        updated_at: new Date(),
      })
      .execute();
    return { ...(await readCheckoutSettings(ctx.db)), paymentProvider: ctx.payments.name };
  }),

  /** The default mockup template (null until one is saved). */
  defaultTemplates: adminProcedure.query(async ({ ctx }) => {
    const row = await ctx.db.selectFrom('mockup_templates').select(TEMPLATE_COLUMNS).where('is_default', '=', true).executeTakeFirst();
    return row ?? null;
  }),

  /**
   * Updates the default template's images, keeping its art positions, or inserts one with the
   * default positions (SPEC §7 "update or insert"). One statement on the one-default index, so two
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
