import { createFileRoute } from '@tanstack/react-router';
import { CustomersPage } from '../../components/admin/customers/CustomersPage';
import { filterInAddress } from '../../components/admin/parts/filter-in-address';
import { CUSTOMER_FILTERS } from '../../../shared/schemas/admin-people';

export const Route = createFileRoute('/admin/customers')({
  ...filterInAddress('filter', CUSTOMER_FILTERS, ({ queryClient, trpc }, deps) =>
    queryClient.prefetchQuery(trpc.admin.customers.list.queryOptions(deps)),
  ),
  component: CustomersRoute,
});

function CustomersRoute() {
  const { filter } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CustomersPage filter={filter} onFilterChange={(next) => void navigate({ search: { filter: next }, resetScroll: false })} />;
}
