import { createFileRoute } from '@tanstack/react-router';
import { CustomersPage } from '../../components/admin/customers/CustomersPage';
import { customersSearchSchema, listInputOf } from '../../components/admin/customers/customers-search';
import { listInAddress } from '../../components/admin/parts/list-in-address';

export const Route = createFileRoute('/admin/customers')({
  ...listInAddress(customersSearchSchema, listInputOf, ({ queryClient, trpc }, input) => {
    void queryClient.prefetchQuery(trpc.admin.customers.list.queryOptions(input));
  }),
  component: CustomersPage,
});
