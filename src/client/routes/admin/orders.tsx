import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { OrdersPage } from '../../components/admin/orders/OrdersPage';
import { ORDER_FILTERS, type OrderFilter } from '../../../shared/constants';
import { oneOf, pageNumber, searchParams, text } from '../../search-params';

// Filter and page live in the address, so a view survives a reload; stale values fall back to the defaults.
const searchSchema = searchParams<{ status?: OrderFilter; search?: string; page?: number }>()((raw) => ({
  status: oneOf(ORDER_FILTERS, raw.status) ?? 'all',
  search: text(typeof raw.search === 'number' ? String(raw.search) : raw.search, 200),
  page: pageNumber(raw.page) ?? 1,
}));

export const Route = createFileRoute('/admin/orders')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams({ status: 'all', page: 1 })] },
  loaderDeps: ({ search }) => ({ status: search.status, search: search.search, page: search.page }),
  // Not awaited: the table shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.orders.list.queryOptions(deps));
  },
  component: OrdersRoute,
});

function OrdersRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <OrdersPage
      status={search.status}
      search={search.search}
      page={search.page}
      // A new filter or search starts again on its first page.
      onStatusChange={(status) => void navigate({ search: (prev) => ({ ...prev, status, page: 1 }), resetScroll: false })}
      onSearch={(text) => void navigate({ search: (prev) => ({ ...prev, search: text || undefined, page: 1 }), resetScroll: false })}
      onPageChange={(page) => void navigate({ search: (prev) => ({ ...prev, page }) })}
    />
  );
}
