import { Outlet, useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import { useMe } from '../../session/session';
import { LoadingState } from '../ui/states';

/**
 * The account pages' layout. The route's beforeLoad already sent signed-out visitors to /login;
 * this covers a sign-out in another tab while a page is open. Pages under it read the user with
 * useSignedInUser().
 */
export function AccountLayout({ children }: { children?: ReactNode }) {
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
  if (!me) return <LoadingState label="Loading your account..." />;
  return children ?? <Outlet />;
}
