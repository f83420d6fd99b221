import { createFileRoute } from '@tanstack/react-router';
import { EditProductPage } from '../../../components/admin/products/ProductFormPage';

export const Route = createFileRoute('/admin/products/$id/edit')({
  loader: ({ context: { queryClient, trpc }, params }) => {
    void queryClient.prefetchQuery({ ...trpc.admin.products.byId.queryOptions({ id: params.id }), retry: false });
    void queryClient.prefetchQuery(trpc.admin.products.categoryOptions.queryOptions());
  },
  component: EditProductRoute,
});

function EditProductRoute() {
  const { id } = Route.useParams();
  return <EditProductPage id={id} />;
}
