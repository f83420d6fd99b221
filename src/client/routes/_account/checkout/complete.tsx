import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ReturnFromPayment } from '../../../components/orders/ReturnFromPayment';

// Where the card payment page sends the buyer back (both when paid and when given up).
export const Route = createFileRoute('/_account/checkout/complete')({
  validateSearch: z.object({
    order: z.string().optional().catch(undefined),
    payment: z.enum(['done', 'cancelled']).optional().catch(undefined),
  }),
  component: ReturnFromPayment,
});
