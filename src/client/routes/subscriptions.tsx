import { createFileRoute } from '@tanstack/react-router';
import { SubscriptionsPage } from '../components/info/SubscriptionsPage';
import { prefetchQuietly } from '../prefetch';

export const Route = createFileRoute('/subscriptions')({
  loader: ({ context: { queryClient, trpc } }) => prefetchQuietly(queryClient, trpc.subscriptions.plans.queryOptions()),
  component: SubscriptionsPage,
});
