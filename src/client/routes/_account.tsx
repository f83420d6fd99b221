import { createFileRoute } from '@tanstack/react-router';
import { AccountLayout } from '../components/account/AccountLayout';
import { requireSignedIn } from '../session/redirect';

// The signed-in customer's pages (My Account, settings, orders, subscription): one guard for all.
export const Route = createFileRoute('/_account')({
  beforeLoad: requireSignedIn,
  component: AccountLayout,
});
