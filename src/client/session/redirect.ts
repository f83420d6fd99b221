import { redirect, type ParsedLocation } from '@tanstack/react-router';
import type { RouterContext } from '../router-context';

/**
 * A `redirect` search param is followed only when it is a path on this site: one leading slash
 * (not "//host" or "/\host", which browsers treat as another origin) and no control characters.
 */
export function safeRedirect(value: string | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  return value;
}

/**
 * beforeLoad guard of pages that need a signed-in user (docs/PRODUCT.md § Roles): anyone else goes to /login,
 * which brings them back here after signing in.
 */
export async function requireSignedIn({ context, location }: { context: RouterContext; location: ParsedLocation }) {
  const me = await currentUser(context);
  if (!me) throw redirect({ to: '/login', search: { redirect: location.href }, replace: true });
  return { me };
}

/**
 * Who is signed in, for route guards; null when nobody is (or the read failed). fetchQuery, not
 * ensureQueryData, so a `me` invalidated by a sign-in, sign-out or demotion is read again.
 */
export function currentUser({ queryClient, trpc }: RouterContext) {
  return queryClient.fetchQuery({ ...trpc.auth.me.queryOptions(), staleTime: 60_000 }).catch(() => null);
}
