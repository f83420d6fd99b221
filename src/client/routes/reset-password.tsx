import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../components/account/ResetPasswordPage';
import { searchParams, text } from '../search-params';

// The emailed link carries `token` and `type=recovery`; `token_hash` is accepted as well (docs/PRODUCT.md § Screens).
const validateSearch = searchParams<{ token_hash?: string; token?: string; type?: string }>()((raw) => ({
  token_hash: text(raw.token_hash),
  token: text(raw.token),
  type: text(raw.type),
}));

export const Route = createFileRoute('/reset-password')({
  validateSearch,
  component: ResetPasswordPage,
});
