import { createFileRoute } from '@tanstack/react-router';
import { EmailLogsPage } from '../../components/admin/email-logs/EmailLogsPage';
import { filterInAddress, useFilterInAddress } from '../../components/admin/parts/filter-in-address';
import { EMAIL_FILTERS, type EmailFilter } from '../../../shared/constants';

// The list shows 'Loading emails...' while the prefetch runs.
export const Route = createFileRoute('/admin/email-logs')({
  ...filterInAddress('status', EMAIL_FILTERS, ({ queryClient, trpc }, deps) =>
    queryClient.prefetchQuery(trpc.admin.emails.list.queryOptions(deps)),
  ),
  component: function EmailLogsRoute() {
    const [status, onStatusChange] = useFilterInAddress<EmailFilter>('status');
    return <EmailLogsPage status={status} onStatusChange={onStatusChange} />;
  },
});
