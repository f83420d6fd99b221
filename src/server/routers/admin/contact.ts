import { TRPCError } from '@trpc/server';
import { isAdmin } from '../../auth/admin';
import type { Db } from '../../db/database';
import { ADMIN_REQUIRED, adminProcedure, router } from '../../trpc/init';

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

  /** The same count now and after every change to the table, from any app process. */
  onNewCount: adminProcedure.subscription(async function* ({ ctx, signal }) {
    const changes = ctx.events.subscribe(signal); // listening before the first count, so no change is missed
    yield await countNew(ctx.db);
    for await (const event of changes) {
      if (event.type !== 'contact_submissions_changed') continue;
      // A demoted admin's open stream ends at the next change.
      if (!(await isAdmin(ctx.db, ctx.session.user.id))) throw new TRPCError({ code: 'FORBIDDEN', message: ADMIN_REQUIRED });
      yield await countNew(ctx.db);
    }
  }),
});
