import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '../../components/account/SettingsPage';
import { prefetchQuietly } from '../../prefetch';

export const Route = createFileRoute('/_account/settings')({
  loader: ({ context: { queryClient, trpc } }) => prefetchQuietly(queryClient, trpc.account.profile.queryOptions()),
  component: SettingsPage,
});
