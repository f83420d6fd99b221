import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from 'zod';
import { ContactPage } from '../../components/admin/contact/ContactPage';
import { CONTACT_FILTERS } from '../../../shared/schemas/admin-people';

// The status filter lives in the address, so a filtered view survives a reload; a stale value falls back to all.
const searchSchema = z.object({ status: z.enum(CONTACT_FILTERS).default('all').catch('all') });

export const Route = createFileRoute('/admin/contact')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams({ status: 'all' })] },
  loaderDeps: ({ search }) => ({ status: search.status }),
  // Not awaited: the list shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.contact.list.queryOptions(deps));
  },
  component: ContactRoute,
});

function ContactRoute() {
  const { status } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <ContactPage status={status} onStatusChange={(next) => void navigate({ search: { status: next }, resetScroll: false })} />;
}
