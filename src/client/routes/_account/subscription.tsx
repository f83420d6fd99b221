import { createFileRoute } from '@tanstack/react-router';
import { MembershipPage } from '../../components/subscriptions/MembershipPage';
import { prefetchQuietly } from '../../prefetch';

export const Route = createFileRoute('/_account/subscription')({
  loader: ({ context: { queryClient, trpc } }) => prefetchQuietly(queryClient, trpc.subscriptions.mine.queryOptions()),
  component: MembershipPage,
});
