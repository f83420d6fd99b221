import { createFileRoute } from '@tanstack/react-router';
import { ProductsPage } from '../../../components/admin/products/ProductsPage';
import { listInputOf, productsSearchSchema } from '../../../components/admin/products/products-search';
import { listInAddress } from '../../../components/admin/parts/list-in-address';

export const Route = createFileRoute('/admin/products/')({
  ...listInAddress(productsSearchSchema, listInputOf, ({ queryClient, trpc }, input) => {
    void queryClient.prefetchQuery(trpc.admin.products.list.queryOptions(input));
    void queryClient.prefetchQuery(trpc.admin.products.categoryOptions.queryOptions());
  }),
  component: ProductsPage,
});
