import { createFileRoute } from '@tanstack/react-router';
import { EmailLogsPage } from '../../components/admin/email-logs/EmailLogsPage';
import { filterInAddress } from '../../components/admin/parts/filter-in-address';
import { EMAIL_FILTERS } from '../../../shared/schemas/admin-orders';

export const Route = createFileRoute('/admin/email-logs')({
  // The list shows 'Loading emails...' while the prefetch runs.
  ...filterInAddress('status', EMAIL_FILTERS, ({ queryClient, trpc }, deps) =>
    queryClient.prefetchQuery(trpc.admin.emails.list.queryOptions(deps)),
  ),
  component: EmailLogsRoute,
});

function EmailLogsRoute() {
  const { status } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <EmailLogsPage status={status} onStatusChange={(next) => void navigate({ search: { status: next }, resetScroll: false })} />;
}
