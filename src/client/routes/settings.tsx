import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '../components/account/SettingsPage';
import { prefetchQuietly } from '../prefetch';
import { requireSignedIn } from '../session/redirect';

export const Route = createFileRoute('/settings')({
  beforeLoad: requireSignedIn,
  loader: ({ context: { queryClient, trpc } }) => prefetchQuietly(queryClient, trpc.account.profile.queryOptions()),
  component: SettingsPage,
});
