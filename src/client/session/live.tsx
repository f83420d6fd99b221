import { skipToken, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useTRPC } from '../trpc';
import { useMe, useSessionSync } from './session';

/**
 * Mounted once at the root: follows sign-in and sign-out in other tabs, and re-reads the signed-in
 * user when their own customers row changes (SPEC §4: a promotion or demotion shows at once).
 */
export function LiveSession() {
  useSessionSync();
  const me = useMe().data;
  // Keyed by user, so the stream is reopened with the new session cookie when the user changes.
  return me ? <MyAccountFeed key={me.id} /> : null;
}

function MyAccountFeed() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reread = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() });
  };
  useSubscription(
    trpc.live.myAccount.subscriptionOptions(undefined, {
      // Once the stream is up, read again: a change made before it connected sent no event here.
      onStarted: reread,
      onData: reread,
      // The server ends the stream when the session ends (signed out elsewhere, expired): the page
      // reads again who is signed in, and shows the visitor as signed out.
      onError: reread,
    }),
  );
  return null;
}

/**
 * The number of contact submissions whose status is new, live while `enabled` (an admin is signed
 * in): the server answers at once and after every change to the table (SPEC §7). Each call opens a
 * stream, and browsers allow few open connections per host, so call it once per page.
 */
export function useLiveNewContactCount(enabled: boolean): number | undefined {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const subscription = useSubscription(
    trpc.admin.contact.onNewCount.subscriptionOptions(enabled ? undefined : skipToken, {
      // Admin screens reading admin.contact.newCount see the same number without a request.
      onData: (count) => queryClient.setQueryData(trpc.admin.contact.newCount.queryKey(), count),
    }),
  );
  // A stream that failed (for example after a demotion) shows no number rather than a stale one.
  return enabled && subscription.status !== 'error' ? subscription.data : undefined;
}
