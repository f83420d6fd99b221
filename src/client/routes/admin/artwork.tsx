import { createFileRoute } from '@tanstack/react-router';
import { ArtworkPage } from '../../components/admin/artwork/ArtworkPage';
import { artworkSearchSchema, listInputOf } from '../../components/admin/artwork/artwork-search';
import { listInAddress } from '../../components/admin/parts/list-in-address';

export const Route = createFileRoute('/admin/artwork')({
  ...listInAddress(artworkSearchSchema, listInputOf, ({ queryClient, trpc }, input) => {
    void queryClient.prefetchQuery(trpc.admin.artwork.list.queryOptions(input));
    void queryClient.prefetchQuery(trpc.admin.artwork.tags.queryOptions());
  }),
  component: ArtworkPage,
});
