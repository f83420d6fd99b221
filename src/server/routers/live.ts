import { customerProcedure, router } from '../trpc/init';

export const liveRouter = router({
  /**
   * Signals the signed-in user's open pages that their own account changed (for example a
   * promotion to admin), so they re-read auth.me; SPEC §7 "live subscription to updates of the
   * customers row with the user's id".
   */
  myAccount: customerProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const event of ctx.events.subscribe(signal)) {
      if (event.type === 'customer_changed' && event.userId === ctx.session.user.id) yield { changed: true as const };
    }
  }),
});
