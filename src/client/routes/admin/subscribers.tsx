import { createFileRoute } from '@tanstack/react-router';
import { SubscribersPage } from '../../components/admin/subscribers/SubscribersPage';
import { listInputOf, subscribersSearchSchema } from '../../components/admin/subscribers/subscribers-search';

export const Route = createFileRoute('/admin/subscribers')({
  validateSearch: subscribersSearchSchema,
  loaderDeps: ({ search }) => listInputOf(search),
  // Not awaited: the table shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.subscribers.list.queryOptions(deps));
    void queryClient.prefetchQuery(trpc.admin.plans.list.queryOptions());
  },
  component: SubscribersPage,
});
