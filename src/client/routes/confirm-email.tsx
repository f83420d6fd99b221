import { createFileRoute } from '@tanstack/react-router';
import { ConfirmEmailPage } from '../components/account/ConfirmEmailPage';
import { searchParams, text } from '../search-params';

// The link in the sign-up confirmation email (src/server/email/templates).
const validateSearch = searchParams<{ token?: string }>()((raw) => ({ token: text(raw.token) }));

export const Route = createFileRoute('/confirm-email')({
  validateSearch,
  component: ConfirmEmailPage,
});
