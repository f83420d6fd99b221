import { createFileRoute } from '@tanstack/react-router';
import { PlansPage } from '../../components/admin/plans/PlansPage';

export const Route = createFileRoute('/admin/subscriptions')({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.admin.plans.list.queryOptions());
  },
  component: PlansPage,
});
