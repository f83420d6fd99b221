import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../components/admin/dashboard/DashboardPage';

export const Route = createFileRoute('/admin/')({
  // Not awaited: the cards show their loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.admin.dashboard.overview.queryOptions());
  },
  component: DashboardPage,
});
