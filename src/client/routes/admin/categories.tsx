import { createFileRoute } from '@tanstack/react-router';
import { CategoriesPage } from '../../components/admin/categories/CategoriesPage';

export const Route = createFileRoute('/admin/categories')({
  // Not awaited: the list shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.admin.categories.list.queryOptions());
  },
  component: CategoriesPage,
});
