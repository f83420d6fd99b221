import { createFileRoute } from '@tanstack/react-router';
import { OrdersPage } from '../../../components/orders/OrdersPage';
import { prefetchQuietly } from '../../../prefetch';
import { pageNumber, searchParams } from '../../../search-params';

const validateSearch = searchParams<{ page?: number }>()((raw) => ({ page: pageNumber(raw.page) }));

export const Route = createFileRoute('/_account/orders/')({
  validateSearch,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient, trpc }, deps }) => prefetchQuietly(queryClient, trpc.orders.list.queryOptions({ page: deps.page })),
  component: OrdersPage,
});
