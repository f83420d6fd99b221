import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ResetPasswordPage } from '../components/account/ResetPasswordPage';

const param = z.string().optional().catch(undefined);

export const Route = createFileRoute('/reset-password')({
  // The emailed link carries `token` and `type=recovery`; `token_hash` is accepted as well (SPEC §2).
  validateSearch: z.object({ token_hash: param, token: param, type: param }),
  component: ResetPasswordPage,
});
