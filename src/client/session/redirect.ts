import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { storePath } from '../../shared/return-path';
import type { RouterContext } from '../router-context';

/**
 * A `redirect` (or a confirmation link's `next`) is followed only when it is a page of this store
 * (storePath: not "//host" or "/\host", which browsers treat as another origin, nor control characters).
 */
export const safeRedirect = (value: string | undefined): string | undefined => storePath(value);

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
