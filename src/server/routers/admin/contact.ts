import { CONTACT_PAGE_SIZE, contactListInput, contactOpenInput, contactSetStatusInput } from '../../../shared/schemas/admin-people';
import { countRows, statusCounts } from '../../db/count';
import type { Db } from '../../db/database';
import { publishEvent } from '../../events/events';
import { notFound } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { readPage } from '../../trpc/paging';
import { updateById } from '../../trpc/update';

const SUBMISSION_COLUMNS = ['id', 'name', 'email', 'subject', 'message', 'status', 'created_at'] as const;
/** Contact submissions whose status is new (the admin badge); also sent live by live.feed. */
export const countNewContactSubmissions = (db: Db) => countRows(db.selectFrom('contact_submissions').where('status', '=', 'new'));

export const adminContactRouter = router({
  /** Contact submissions whose status is new: the red badge on the header's Admin link. */
  newCount: adminProcedure.query(({ ctx }) => countNewContactSubmissions(ctx.db)),

  /**
   * The inbox: one page of submissions newest first, optionally of one status, and the stat
   * tiles' counts, which are of every submission whatever the filter.
   */
  list: adminProcedure.input(contactListInput).query(async ({ ctx, input }) => {
    const status = input.status === 'all' ? null : input.status;
    const filtered = ctx.db.selectFrom('contact_submissions').$call((qb) => (status ? qb.where('status', '=', status) : qb));
    const counts = await ctx.db
      .selectFrom('contact_submissions')
      .select(statusCounts({ new: 'new', read: 'read', resolved: 'resolved' }))
      .executeTakeFirstOrThrow();
    // The filter's own total is one of the counts just read: no second count.
    const total = status ? counts[status] : counts.total;
    const listPage = await readPage(total, input.page, CONTACT_PAGE_SIZE, () =>
      filtered.select(SUBMISSION_COLUMNS).orderBy('created_at', 'desc').orderBy('id'),
    );
    return { ...listPage, counts };
  }),

  /** Opens one submission for the detail panel; a new one becomes read in the same step (docs/PRODUCT.md § States). */
  open: adminProcedure.input(contactOpenInput).mutation(({ ctx, input }) =>
    ctx.db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('contact_submissions')
        .set({ status: 'read', updated_at: new Date() })
        .where('id', '=', input.id)
        .where('status', '=', 'new')
        .returning(SUBMISSION_COLUMNS)
        .executeTakeFirst();
      if (marked) {
        await publishEvent(trx, { type: 'contact_submissions_changed' });
        return marked;
      }
      const submission = await trx
        .selectFrom('contact_submissions')
        .select(SUBMISSION_COLUMNS)
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (!submission) throw notFound('Submission');
      return submission;
    }),
  ),

  /** Any status at any time (docs/PRODUCT.md § States); every admin's badge follows through the event. */
  setStatus: adminProcedure.input(contactSetStatusInput).mutation(({ ctx, input }) =>
    ctx.db.transaction().execute(async (trx) => {
      const updated = await updateById(trx, 'contact_submissions', input.id, { status: input.status }, SUBMISSION_COLUMNS, 'Submission');
      await publishEvent(trx, { type: 'contact_submissions_changed' });
      return updated;
    }),
  ),
});
