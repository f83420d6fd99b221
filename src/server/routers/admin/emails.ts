import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import { EMAIL_LIST_LIMIT } from '../../../shared/constants';
import {
  EMAIL_NOT_RETRYABLE,
  RETRYABLE_EMAIL_STATUSES,
  emailAttemptsInput,
  emailRetryInput,
  emailsListInput,
} from '../../../shared/schemas/admin-orders';
import { statusCounts } from '../../db/count';
import { processEmailQueue } from '../../email/processor';
import { createTransport } from '../../email/transport';
import { notFound } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';

// The Email Logs screen (docs/PRODUCT.md § Screens, States and Reads and writes): the queue's newest rows with their stat counts, each
// row's delivery attempts, Retry Now, and Process Queue. Bodies never leave the server.

const EMAIL_COLUMNS = [
  'id',
  'status',
  'subject',
  'to_email',
  'retry_count',
  'max_retries',
  'created_at',
  'sent_at',
  'next_retry_at',
  'last_error',
] as const;

export const adminEmailsRouter = router({
  /** At most the 100 newest emails (optionally of one status) and the counts of the five tiles. */
  list: adminProcedure.input(emailsListInput).query(async ({ ctx, input }) => {
    const status = input.status === 'all' ? null : input.status;
    const [emails, counts] = await Promise.all([
      ctx.db
        .selectFrom('email_queue')
        .select(EMAIL_COLUMNS)
        .$call((qb) => (status ? qb.where('status', '=', status) : qb))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(EMAIL_LIST_LIMIT)
        .execute(),
      ctx.db
        .selectFrom('email_queue')
        .select(statusCounts({ sent: 'sent', pending: 'pending', failed: 'failed', permanentlyFailed: 'permanently_failed' }))
        .executeTakeFirstOrThrow(),
    ]);
    return { emails, counts };
  }),

  /** One email's delivery attempts, newest first. */
  attempts: adminProcedure
    .input(emailAttemptsInput)
    .query(({ ctx, input }) =>
      ctx.db
        .selectFrom('email_logs')
        .select(['id', 'attempt_number', 'status', 'response_code', 'error_message', 'created_at'])
        .where('email_queue_id', '=', input.id)
        .orderBy('created_at', 'desc')
        .orderBy('attempt_number', 'desc')
        .execute(),
    ),

  /** Retry Now: a failed or permanently failed email goes back to pending, due at once. */
  retry: adminProcedure.input(emailRetryInput).mutation(async ({ ctx, input }) => {
    const updated = await ctx.db
      .updateTable('email_queue')
      .set({
        status: 'pending',
        next_retry_at: null,
        updated_at: sql<string>`now()`,
      })
      .where('id', '=', input.id)
      .where('status', 'in', RETRYABLE_EMAIL_STATUSES)
      .returning(EMAIL_COLUMNS)
      .executeTakeFirst();
    if (updated) return updated;
    const exists = await ctx.db.selectFrom('email_queue').select('id').where('id', '=', input.id).executeTakeFirst();
    throw exists ? new TRPCError({ code: 'CONFLICT', message: EMAIL_NOT_RETRYABLE }) : notFound('Email');
  }),

  /**
   * Process Queue: one processor run now, in this request. Safe beside the interval processor:
   * rows are claimed with SKIP LOCKED and a lease, so no email is sent twice by the two. A shutdown
   * meanwhile stops it claiming, as it stops the interval processor, and waits for the email in hand.
   */
  processQueue: adminProcedure.mutation(({ ctx }) =>
    ctx.background.stoppable(async (signal) => {
      const transport = createTransport(ctx.config);
      try {
        return await processEmailQueue(ctx.db, transport, { from: ctx.config.emailFrom, batchSize: ctx.config.emailBatchSize, signal });
      } finally {
        await transport.close();
      }
    }),
  ),
});
