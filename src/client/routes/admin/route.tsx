import { createFileRoute, redirect } from '@tanstack/react-router';
import { AdminLayout } from '../../components/admin/layout/AdminLayout';

export const Route = createFileRoute('/admin')({
  // SPEC §6: non-admins and signed-out users go to /. The server refuses every admin.* call anyway.
  beforeLoad: async ({ context: { queryClient, trpc } }) => {
    // fetchQuery (not ensureQueryData) so a `me` invalidated by a sign-in, sign-out or demotion is re-read.
    const me = await queryClient.fetchQuery({ ...trpc.auth.me.queryOptions(), staleTime: 60_000 }).catch(() => null);
    if (!me?.isAdmin) throw redirect({ to: '/', replace: true });
  },
  component: AdminLayout,
});
