import { createFileRoute } from '@tanstack/react-router';
import { NewProductPage } from '../../../components/admin/products/ProductFormPage';

export const Route = createFileRoute('/admin/products/new')({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.admin.products.categoryOptions.queryOptions());
  },
  component: NewProductPage,
});
