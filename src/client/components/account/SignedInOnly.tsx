import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import { useMe } from '../../session/session';
import { LoadingBlock } from './ui';

type Me = NonNullable<ReturnType<typeof useMe>['data']>;

/**
 * Renders a signed-in page for the current user. The route's beforeLoad already sent signed-out
 * visitors to /login; this covers a sign-out in another tab while the page is open.
 */
export function SignedInOnly({ children }: { children: (me: Me) => ReactNode }) {
  const me = useMe().data;
  const router = useRouter();
  const navigate = useNavigate();
  // Once: the location changes while the navigation runs, and must not start another one.
  const redirected = useRef(false);
  useEffect(() => {
    if (me !== null || redirected.current) return;
    redirected.current = true;
    void navigate({ to: '/login', search: { redirect: router.state.location.href }, replace: true });
  }, [me, navigate, router]);
  if (!me) return <LoadingBlock label="Loading your account..." />;
  return children(me);
}
