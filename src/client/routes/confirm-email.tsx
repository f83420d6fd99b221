import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ConfirmEmailPage } from '../components/account/ConfirmEmailPage';

export const Route = createFileRoute('/confirm-email')({
  // The link in the sign-up confirmation email (src/server/email/templates).
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: ConfirmEmailPage,
});
