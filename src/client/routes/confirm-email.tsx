import { createFileRoute } from '@tanstack/react-router';
import { ConfirmEmailPage } from '../components/account/ConfirmEmailPage';
import { searchParams, text } from '../search-params';

// The link in the sign-up confirmation email (src/server/email/templates); `next` is where the
// sign-up started (the checkout, a plan's join page), followed only when it is a page of this store.
const validateSearch = searchParams<{ token?: string; next?: string }>()((raw) => ({ token: text(raw.token), next: text(raw.next, 500) }));

export const Route = createFileRoute('/confirm-email')({
  validateSearch,
  component: ConfirmEmailPage,
});
