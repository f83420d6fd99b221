import { createFileRoute, redirect } from '@tanstack/react-router';
import { AdminLayout } from '../../components/admin/layout/AdminLayout';

export const Route = createFileRoute('/admin')({
  // SPEC §6: non-admins and signed-out users go to /. The server refuses every admin.* call anyway.
  beforeLoad: async ({ context: { queryClient, trpc }, location }) => {
    // fetchQuery (not ensureQueryData) so a `me` invalidated by a sign-in, sign-out or demotion is re-read.
    const me = await queryClient.fetchQuery({ ...trpc.auth.me.queryOptions(), staleTime: 60_000 }).catch(() => null);
    // SPEC §6: the email logs screen sends a signed-out visitor to sign in; the rest of the admin to the store.
    if (!me && location.pathname === '/admin/email-logs') {
      throw redirect({ to: '/login', search: { redirect: location.pathname }, replace: true });
    }
    if (!me?.isAdmin) throw redirect({ to: '/', replace: true });
  },
  component: AdminLayout,
});
