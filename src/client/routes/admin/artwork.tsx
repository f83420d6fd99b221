import { createFileRoute } from '@tanstack/react-router';
import { ArtworkPage } from '../../components/admin/artwork/ArtworkPage';

export const Route = createFileRoute('/admin/artwork')({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.admin.artwork.list.queryOptions({}));
    void queryClient.prefetchQuery(trpc.admin.artwork.tags.queryOptions());
  },
  component: ArtworkPage,
});
