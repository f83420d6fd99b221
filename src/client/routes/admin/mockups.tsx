import { createFileRoute } from '@tanstack/react-router';
import { MockupsPage } from '../../components/admin/mockups/MockupsPage';

export const Route = createFileRoute('/admin/mockups')({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.admin.mockups.products.queryOptions({ search: '' }));
    void queryClient.prefetchQuery(trpc.admin.mockups.templates.queryOptions());
  },
  component: MockupsPage,
});
