import { eventsWhileAllowed } from '../events/access';
import { customerProcedure, router } from '../trpc/init';

export const liveRouter = router({
  /**
   * Signals the signed-in user's open pages that their own account changed (for example a
   * promotion to admin), so they re-read auth.me; SPEC §7 "live subscription to updates of the
   * customers row with the user's id". It ends with UNAUTHORIZED once the session ends.
   */
  myAccount: customerProcedure.subscription(async function* ({ ctx, signal }) {
    const userId = ctx.session.user.id;
    const changes = eventsWhileAllowed(ctx, { wanted: (event) => event.type === 'customer_changed' && event.userId === userId }, signal);
    for await (const event of changes) {
      if (event.type === 'customer_changed') yield { changed: true as const };
    }
  }),
});
