import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from 'zod';
import { CustomersPage } from '../../components/admin/customers/CustomersPage';
import { CUSTOMER_FILTERS } from '../../../shared/schemas/admin-people';

// The filter lives in the address, so a filtered view survives a reload; a stale value falls back to All.
const searchSchema = z.object({ filter: z.enum(CUSTOMER_FILTERS).default('all').catch('all') });

export const Route = createFileRoute('/admin/customers')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams({ filter: 'all' })] },
  loaderDeps: ({ search }) => ({ filter: search.filter }),
  // Not awaited: the table shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.customers.list.queryOptions(deps));
  },
  component: CustomersRoute,
});

function CustomersRoute() {
  const { filter } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CustomersPage filter={filter} onFilterChange={(next) => void navigate({ search: { filter: next }, resetScroll: false })} />;
}
