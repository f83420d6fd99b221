import { contactInput } from '../../shared/schemas/contact';
import { enqueueEmail } from '../email/queue';
import { publishEvent } from '../events/events';
import { contactNotificationEmail } from '../email/templates';
import { publicProcedure, rateLimited, router } from '../trpc/init';

export const contactRouter = router({
  /** Stores the message; then queues a notification to the store. A failure to queue is only logged (SPEC §7). */
  submit: publicProcedure
    .use(rateLimited('contact'))
    .input(contactInput)
    .mutation(async ({ ctx, input }) => {
      const submission = await ctx.db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('contact_submissions').values(input).returning('id').executeTakeFirstOrThrow();
        await publishEvent(trx, { type: 'contact_submissions_changed' });
        return row;
      });
      try {
        await enqueueEmail(ctx.db, contactNotificationEmail(ctx.config, input), ctx.config.emailMaxRetries);
      } catch (error) {
        ctx.log.error({ err: error, submissionId: submission.id }, 'could not queue the contact notification email');
      }
      return { id: submission.id };
    }),
});
