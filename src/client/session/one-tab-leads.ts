/**
 * Runs `lead` in one tab of this browser at a time, and gives what it publishes to `receive` in
 * every tab taking part, its own included. The leader is whichever tab holds the Web Lock `name`;
 * when it closes or leaves, a waiting tab takes the lock and leads. Returns the function that
 * leaves (stopping `lead` if this tab was leading).
 *
 * Why: a browser opens at most six HTTP/1.1 connections per origin, so a stream held by every tab
 * stalls every request once a few tabs are open.
 */
export function oneTabLeads<T>(
  name: string,
  lead: (publish: (message: T) => void) => () => void,
  receive: (message: T) => void,
): () => void {
  // Browsers without both (none current) keep one stream per tab.
  if (typeof BroadcastChannel === 'undefined' || !('locks' in navigator)) return lead(receive);

  const channel = new BroadcastChannel(name);
  channel.onmessage = (event: MessageEvent<T>) => receive(event.data);
  const left = new AbortController();
  navigator.locks
    .request(
      name,
      { signal: left.signal },
      () =>
        // Held until this tab leaves; closing the tab releases it too.
        new Promise<void>((resolve) => {
          const stop = lead((message) => {
            receive(message);
            channel.postMessage(message);
          });
          left.signal.addEventListener(
            'abort',
            () => {
              stop();
              resolve();
            },
            { once: true },
          );
        }),
    )
    // An AbortError: the tab left while waiting for its turn.
    .catch(() => undefined);
  return () => {
    left.abort();
    channel.close();
  };
}
