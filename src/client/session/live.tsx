import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { trpc, trpcClient, type RouterOutputs } from '../trpc';
import { oneTabLeads } from './one-tab-leads';
import { storeChannelName, useMe, useSessionSync } from './session';

type LiveMessage = RouterOutputs['live']['feed'] extends AsyncIterable<infer Message> ? Message : never;
/** What the leading tab tells every tab: a message of the stream, or that the stream (re)started or ended. */
type TabMessage = LiveMessage | { kind: 'reread' };

// A stream that ended while the user is still signed in (their session was renewed by a password
// change, the server restarted) is opened again after this long, doubling up to the maximum.
const REOPEN_FIRST_MS = 1_000;
const REOPEN_MAX_MS = 30_000;

/**
 * Mounted once at the root: follows sign-in and sign-out in other tabs, and keeps the signed-in
 * user's live updates (their own account, docs/PRODUCT.md § Reads and writes; an admin's new-contact count) flowing through
 * one stream shared by all the browser's tabs.
 */
export function LiveSession() {
  useSessionSync();
  const me = useMe().data;
  if (!me) return null;
  // Named, and keyed, by user and role: the stream is opened again for a new user, a promotion or a demotion.
  const name = `${storeChannelName('live')}:${me.id}:${String(me.isAdmin)}`;
  return <LiveFeed key={name} name={name} />;
}

function LiveFeed({ name }: { name: string }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const receive = (message: TabMessage) => {
      switch (message.kind) {
        case 'newContactCount':
          queryClient.setQueryData(trpc.admin.contact.newCount.queryKey(), message.count);
          // The inbox, if open, shows the change too (made by another admin or another process).
          void queryClient.invalidateQueries({ queryKey: trpc.admin.contact.list.queryKey() });
          return;
        case 'account':
        case 'reread':
          // 'reread': a change made while no stream was open sent no event; an ended stream may mean
          // the session ended, which auth.me tells.
          void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() });
      }
    };
    return oneTabLeads<TabMessage>(name, followFeed, receive);
  }, [name, queryClient]);
  return null;
}

/** Holds the stream open, reopening it after it ends, until stopped. */
function followFeed(publish: (message: TabMessage) => void): () => void {
  let subscription: { unsubscribe: () => void } | undefined;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let reopenMs = REOPEN_FIRST_MS;
  let started = false;
  const open = () => {
    subscription = trpcClient.live.feed.subscribe(undefined, {
      onStarted: () => {
        started = true;
        reopenMs = REOPEN_FIRST_MS;
        publish({ kind: 'reread' });
      },
      onData: publish,
      onError: (error) => {
        // A running stream whose session ended may have been renewed (a password change): reading
        // auth.me now could race the new cookie and show a signed-out page, so the stream is
        // opened again first, and only a refusal at once means this browser is signed out. Any
        // other end (a demotion) is read at once.
        if (!started || error.data?.code !== 'UNAUTHORIZED') publish({ kind: 'reread' });
        started = false;
        // If the session ended, the re-read signs this tab out and stops this first.
        reopenTimer = setTimeout(open, reopenMs);
        reopenMs = Math.min(reopenMs * 2, REOPEN_MAX_MS);
      },
    });
  };
  open();
  return () => {
    clearTimeout(reopenTimer);
    subscription?.unsubscribe();
  };
}

/**
 * The number of new contact submissions while `enabled` (an admin is signed in), kept current by
 * the live stream; `known` once its first read has answered (or failed).
 */
export function useNewContactCount(enabled: boolean): { count: number | undefined; known: boolean } {
  const count = useQuery({ ...trpc.admin.contact.newCount.queryOptions(), enabled });
  // Not a number cached before a demotion.
  return enabled ? { count: count.data, known: !count.isPending } : { count: undefined, known: false };
}
