import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from 'zod';
import { EmailLogsPage } from '../../components/admin/email-logs/EmailLogsPage';
import { EMAIL_FILTERS } from '../../../shared/schemas/admin-orders';

// The filter lives in the address, so a filtered view survives a reload; a stale value falls back to All.
const searchSchema = z.object({
  status: z.enum(EMAIL_FILTERS).default('all').catch('all'),
});

export const Route = createFileRoute('/admin/email-logs')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams({ status: 'all' })] },
  loaderDeps: ({ search }) => ({ status: search.status }),
  // Not awaited: the list shows 'Loading emails...' instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.emails.list.queryOptions(deps));
  },
  component: EmailLogsRoute,
});

function EmailLogsRoute() {
  const { status } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <EmailLogsPage status={status} onStatusChange={(next) => void navigate({ search: { status: next }, resetScroll: false })} />;
}
