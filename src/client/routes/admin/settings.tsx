import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '../../components/admin/settings/SettingsPage';

export const Route = createFileRoute('/admin/settings')({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.admin.settings.defaultTemplates.queryOptions());
  },
  component: SettingsPage,
});
