import { createFileRoute, redirect } from '@tanstack/react-router';
import { AdminLayout } from '../../components/admin/layout/AdminLayout';
import { currentUser } from '../../session/redirect';

export const Route = createFileRoute('/admin')({
  // docs/PRODUCT.md § Roles: non-admins and signed-out users go to /. The server refuses every admin.* call anyway.
  beforeLoad: async ({ context, location }) => {
    const me = await currentUser(context);
    // docs/PRODUCT.md § Roles: the email logs screen sends a signed-out visitor to sign in; the rest of the admin to the store.
    // In any letter case, as the router matches paths.
    if (!me && location.pathname.toLowerCase() === '/admin/email-logs') {
      throw redirect({ to: '/login', search: { redirect: location.pathname }, replace: true });
    }
    if (!me?.isAdmin) throw redirect({ to: '/', replace: true });
  },
  component: AdminLayout,
});
