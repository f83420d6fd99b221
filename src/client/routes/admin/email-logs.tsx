import { createFileRoute } from '@tanstack/react-router';
import { EmailLogsPage } from '../../components/admin/email-logs/EmailLogsPage';
import { filterInAddress } from '../../components/admin/parts/filter-in-address';
import { EMAIL_FILTERS } from '../../../shared/schemas/admin-orders';

// The list shows 'Loading emails...' while the prefetch runs.
export const Route = createFileRoute('/admin/email-logs')(
  filterInAddress('status', EMAIL_FILTERS, {
    prefetch: ({ queryClient, trpc }, deps) => queryClient.prefetchQuery(trpc.admin.emails.list.queryOptions(deps)),
    page: (status, onStatusChange) => <EmailLogsPage status={status} onStatusChange={onStatusChange} />,
  }),
);
