import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { OrderPage } from '../../../components/orders/OrderPage';

export const Route = createFileRoute('/_account/orders/$orderNumber')({
  // `placed`: the order was just placed here (the thank-you heading); `payment`: back from the
  // card payment page, done or given up.
  validateSearch: z.object({
    placed: z.boolean().optional().catch(undefined),
    payment: z.enum(['done', 'cancelled']).optional().catch(undefined),
  }),
  component: OrderPage,
});
