import { sql } from 'kysely';
import { contactListInput, contactOpenInput, contactSetStatusInput } from '../../../shared/schemas/admin-people';
import type { Db } from '../../db/database';
import { eventsWhileAllowed } from '../../events/access';
import { publishEvent } from '../../events/events';
import { notFound } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';

const SUBMISSION_COLUMNS = ['id', 'name', 'email', 'subject', 'message', 'status', 'created_at'] as const;
const countNew = async (db: Db) => {
  const row = await db
    .selectFrom('contact_submissions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'new')
    .executeTakeFirstOrThrow();
  return Number(row.count);
};

export const adminContactRouter = router({
  /** Contact submissions whose status is new: the red badge on the header's Admin link. */
  newCount: adminProcedure.query(({ ctx }) => countNew(ctx.db)),

  /**
   * The same count now and after every change to the table, from any app process. The stream ends
   * when its session ends (UNAUTHORIZED) or its user is no longer an admin (FORBIDDEN).
   */
  onNewCount: adminProcedure.subscription(async function* ({ ctx, signal }) {
    // Listening before the first count, so no change is missed.
    const changes = eventsWhileAllowed(ctx, { admin: true, wanted: (event) => event.type === 'contact_submissions_changed' }, signal);
    yield await countNew(ctx.db);
    for await (const _change of changes) yield await countNew(ctx.db);
  }),

  /** The inbox: submissions newest first, optionally of one status, and the stat tiles' counts. */
  list: adminProcedure.input(contactListInput).query(async ({ ctx, input }) => {
    const status = input.status === 'all' ? null : input.status;
    const [submissions, counts] = await Promise.all([
      ctx.db
        .selectFrom('contact_submissions')
        .select(SUBMISSION_COLUMNS)
        .$call((qb) => (status ? qb.where('status', '=', status) : qb))
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),
      ctx.db
        .selectFrom('contact_submissions')
        .select([
          sql<number>`count(*)::int`.as('total'),
          sql<number>`(count(*) filter (where status = 'new'))::int`.as('new'),
          sql<number>`(count(*) filter (where status = 'read'))::int`.as('read'),
          sql<number>`(count(*) filter (where status = 'resolved'))::int`.as('resolved'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    return { submissions, counts };
  }),

  /** Opens one submission for the detail panel; a new one becomes read in the same step (SPEC §4). */
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

  /** Any status at any time (SPEC §4); every admin's badge follows through the event. */
  setStatus: adminProcedure.input(contactSetStatusInput).mutation(({ ctx, input }) =>
    ctx.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('contact_submissions')
        .set({ status: input.status, updated_at: new Date() })
        .where('id', '=', input.id)
        .returning(SUBMISSION_COLUMNS)
        .executeTakeFirst();
      if (!updated) throw notFound('Submission');
      await publishEvent(trx, { type: 'contact_submissions_changed' });
      return updated;
    }),
  ),
});
