import { createFileRoute } from '@tanstack/react-router';
import { ArtworkPage } from '../../components/admin/artwork/ArtworkPage';
import { artworkSearchSchema, listInputOf } from '../../components/admin/artwork/artwork-search';

export const Route = createFileRoute('/admin/artwork')({
  validateSearch: artworkSearchSchema,
  loaderDeps: ({ search }) => listInputOf(search),
  // Not awaited: the grid shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.artwork.list.queryOptions(deps));
    void queryClient.prefetchQuery(trpc.admin.artwork.tags.queryOptions());
  },
  component: ArtworkPage,
});
