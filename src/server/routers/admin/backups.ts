import { TRPCError } from '@trpc/server';
import { BACKUPS_ON_SERVER } from '../../../shared/schemas/admin-settings';
import { adminProcedure, router } from '../../trpc/init';

// Admin → Settings → Backups (docs/adr/0024): the embedded database's daily backups, and one taken
// at once. Each is downloaded through GET /api/admin/backups/<name> (http/backups.ts).

export const adminBackupsRouter = router({
  /** The backups kept, newest first, and when they are taken; `enabled` false on a PostgreSQL server. */
  list: adminProcedure.query(async ({ ctx }) => ({
    enabled: ctx.backups !== null,
    hour: ctx.config.backupHour,
    keep: ctx.config.backupKeep,
    backups: ctx.backups ? await ctx.backups.list() : [],
  })),

  /** Back up now: the same backup as the day's, kept with them. */
  create: adminProcedure.mutation(({ ctx }) => {
    if (!ctx.backups) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: BACKUPS_ON_SERVER });
    return ctx.backups.create(ctx.clock.now());
  }),
});
