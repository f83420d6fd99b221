import { createFileRoute } from '@tanstack/react-router';
import { CustomersPage } from '../../components/admin/customers/CustomersPage';
import { customersSearchSchema, listInputOf } from '../../components/admin/customers/customers-search';

export const Route = createFileRoute('/admin/customers')({
  validateSearch: customersSearchSchema,
  loaderDeps: ({ search }) => listInputOf(search),
  // Not awaited: the list shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.customers.list.queryOptions(deps));
  },
  component: CustomersPage,
});
