import { createFileRoute } from '@tanstack/react-router';
import { ProductsPage } from '../../../components/admin/products/ProductsPage';
import { listInputOf, productsSearchSchema } from '../../../components/admin/products/products-search';

export const Route = createFileRoute('/admin/products/')({
  validateSearch: productsSearchSchema,
  loaderDeps: ({ search }) => listInputOf(search),
  // Not awaited: the table shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.products.list.queryOptions(deps));
    void queryClient.prefetchQuery(trpc.admin.products.categoryOptions.queryOptions());
  },
  component: ProductsPage,
});
