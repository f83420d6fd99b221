import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { OrdersPage } from '../../../components/orders/OrdersPage';
import { prefetchQuietly } from '../../../prefetch';

export const Route = createFileRoute('/_account/orders/')({
  validateSearch: z.object({ page: z.number().int().min(1).optional().catch(undefined) }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient, trpc }, deps }) => prefetchQuietly(queryClient, trpc.orders.list.queryOptions({ page: deps.page })),
  component: OrdersPage,
});
