import { createFileRoute } from '@tanstack/react-router';
import { CustomersPage } from '../../components/admin/customers/CustomersPage';
import { filterInAddress } from '../../components/admin/parts/filter-in-address';
import { CUSTOMER_FILTERS } from '../../../shared/schemas/admin-people';

export const Route = createFileRoute('/admin/customers')(
  filterInAddress('filter', CUSTOMER_FILTERS, {
    prefetch: ({ queryClient, trpc }, deps) => queryClient.prefetchQuery(trpc.admin.customers.list.queryOptions(deps)),
    page: (filter, onFilterChange) => <CustomersPage filter={filter} onFilterChange={onFilterChange} />,
  }),
);
