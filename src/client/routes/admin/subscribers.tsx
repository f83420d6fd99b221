import { createFileRoute } from '@tanstack/react-router';
import { SubscribersPage } from '../../components/admin/subscribers/SubscribersPage';
import { listInputOf, subscribersSearchSchema } from '../../components/admin/subscribers/subscribers-search';
import { listInAddress } from '../../components/admin/parts/list-in-address';

export const Route = createFileRoute('/admin/subscribers')({
  ...listInAddress(subscribersSearchSchema, listInputOf, ({ queryClient, trpc }, input) => {
    void queryClient.prefetchQuery(trpc.admin.subscribers.list.queryOptions(input));
    void queryClient.prefetchQuery(trpc.admin.plans.list.queryOptions());
  }),
  component: SubscribersPage,
});
