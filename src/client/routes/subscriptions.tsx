import { createFileRoute } from '@tanstack/react-router';
import { SubscriptionsPage } from '../components/info/SubscriptionsPage';
import { prefetchQuietly } from '../prefetch';
import { pageHead } from '../seo/page-head';

export const Route = createFileRoute('/subscriptions')({
  loader: ({ context: { queryClient, trpc } }) => prefetchQuietly(queryClient, trpc.subscriptions.plans.queryOptions()),
  head: () =>
    pageHead({
      title: 'Subscription Club',
      description: 'A fresh themed tee delivered every month or quarter. Skip, pause or cancel any time.',
      path: '/subscriptions',
    }),
  component: SubscriptionsPage,
});
