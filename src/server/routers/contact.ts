import { sql } from 'kysely';
import { contactInput } from '../../shared/schemas/contact';
import { enqueueEmail } from '../email/queue';
import { publishEvent } from '../events/events';
import { contactNotificationEmail } from '../email/templates';
import { publicProcedure, rateLimited, router } from '../trpc/init';

export const contactRouter = router({
  /** Stores the message and queues a notification to the store; a failure to queue is only logged (docs/PRODUCT.md § Reads and writes). */
  submit: publicProcedure
    .use(rateLimited('contact'))
    .input(contactInput)
    .mutation(async ({ ctx, input }) => {
      // One transaction, so a stored message always has its notification queued; the email goes
      // behind a savepoint, so a failure to queue it is only logged and the message still saves.
      const submission = await ctx.db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('contact_submissions').values(input).returning('id').executeTakeFirstOrThrow();
        await sql`SAVEPOINT contact_notification`.execute(trx);
        try {
          await enqueueEmail(trx, contactNotificationEmail(ctx.config, input), ctx.config.emailMaxRetries);
          await sql`RELEASE SAVEPOINT contact_notification`.execute(trx);
        } catch (error) {
          await sql`ROLLBACK TO SAVEPOINT contact_notification`.execute(trx);
          ctx.log.error({ err: error, submissionId: row.id }, 'could not queue the contact notification email');
        }
        await publishEvent(trx, { type: 'contact_submissions_changed' });
        return row;
      });
      return { id: submission.id };
    }),
});
