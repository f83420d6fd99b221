import { isAdmin } from '../auth/admin';
import { eventsWhileAllowed } from '../events/access';
import type { StoreEvent } from '../events/events';
import { customerProcedure, router } from '../trpc/init';
import { countNewContactSubmissions } from './admin/contact';

/** What a browser's one live stream tells its tabs. */
export type LiveMessage =
  /** The user's own customers row changed (for example a promotion): read auth.me again (docs/PRODUCT.md § Reads and writes). */
  | { kind: 'account' }
  /** Admins only: the number of new contact submissions, at once and after every change to the table. */
  | { kind: 'newContactCount'; count: number };

export const liveRouter = router({
  /**
   * Everything a signed-in page follows live, in one stream: browsers allow six connections per
   * origin, so a browser holds one of these for all its tabs (client/session/live.tsx). An admin's
   * stream also carries the inbox count and ends with FORBIDDEN on demotion; every stream ends with
   * UNAUTHORIZED when its session ends. The client then reads who is signed in and opens a new one.
   */
  feed: customerProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<LiveMessage> {
    const userId = ctx.session.user.id;
    const admin = await isAdmin(ctx.db, userId);
    const ownAccount = (event: StoreEvent) => event.type === 'customer_changed' && event.userId === userId;
    // Listening before the first count, so no change is missed.
    const changes = eventsWhileAllowed(
      ctx,
      {
        admin,
        wanted: (event) => ownAccount(event) || event.type === 'events_missed' || (admin && event.type === 'contact_submissions_changed'),
      },
      signal,
    );
    const newContactCount = async (): Promise<LiveMessage> => ({
      kind: 'newContactCount',
      count: await countNewContactSubmissions(ctx.db),
    });
    if (admin) yield await newContactCount();
    for await (const event of changes) {
      if (event.type === 'contact_submissions_changed') yield await newContactCount();
      else {
        // Changes may have gone unannounced: the count and the account are read again.
        if (event.type === 'events_missed' && admin) yield await newContactCount();
        yield { kind: 'account' };
      }
    }
  }),
});
