import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useMutation } from '../mutations';
import { storeConfig } from '../store-config';
import { trpc, useTRPC } from '../trpc';

// Sign-in and sign-out are broadcast to the other tabs of this store (docs/ARCHITECTURE.md § Client),
// which then re-read auth.me; the session cookie itself is shared by all tabs already.

/** A name for this store's tabs to share (a BroadcastChannel, a Web Lock), unlikely to clash on a shared origin. */
export const storeChannelName = (purpose: string) => `${storeConfig.storeName.toLowerCase().replace(/[^a-z0-9]/g, '')}-${purpose}`;
const SESSION_CHANNEL = storeChannelName('session');

export type SessionEvent = 'signed-in' | 'signed-out' | 'changed';

// One channel per tab: a BroadcastChannel never receives its own messages, so this tab does not
// react to what it sent itself.
let channel: BroadcastChannel | null | undefined;
function sessionChannel(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);
  return channel;
}

/** Re-reads everything that depends on who is signed in. */
async function refreshSession(queryClient: QueryClient): Promise<void> {
  // Data of the previous user (account, admin screens) must not survive a change of user.
  queryClient.removeQueries({ queryKey: trpc.account.pathKey() });
  queryClient.removeQueries({ queryKey: trpc.admin.pathKey() });
  await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
}

/** Tells the other tabs that the session changed; call after sign-in, sign-up or sign-out. */
function broadcastSession(event: SessionEvent): void {
  sessionChannel()?.postMessage(event);
}

/** Call after this tab signed in or out: refreshes this tab's data and tells the others. */
export async function sessionChanged(queryClient: QueryClient, event: SessionEvent): Promise<void> {
  broadcastSession(event);
  await refreshSession(queryClient);
}

/** Mounted once at the root: refetches `me` when another tab signs in or out. */
export function useSessionSync(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const current = sessionChannel();
    if (!current) return;
    const onMessage = () => {
      void refreshSession(queryClient);
    };
    current.addEventListener('message', onMessage);
    return () => current.removeEventListener('message', onMessage);
  }, [queryClient]);
}

/** The signed-in user (id, email, isAdmin, emailConfirmed) or null when signed out. */
export function useMe() {
  const trpcHooks = useTRPC();
  return useQuery(trpcHooks.auth.me.queryOptions(undefined, { staleTime: 60_000 }));
}

/** The signed-in user, on pages under the account layout (which shows them only while someone is). */
export function useSignedInUser() {
  const me = useMe().data;
  if (!me) throw new Error('useSignedInUser() is for pages under the _account layout');
  return me;
}

/** Signs out, goes to the home page, and tells the other tabs. */
export function useSignOut() {
  const trpcHooks = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation(
    trpcHooks.auth.signOut.mutationOptions({
      // Leave before the server answers: the account stream ends with the session, which makes the
      // tab read who is signed in, and a page that needs a user would send it to /login on the way.
      onMutate: () => navigate({ to: '/' }),
      onSuccess: async () => {
        queryClient.setQueryData(trpcHooks.auth.me.queryKey(), null);
        await sessionChanged(queryClient, 'signed-out');
      },
    }),
  );
}
