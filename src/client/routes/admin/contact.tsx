import { createFileRoute } from '@tanstack/react-router';
import { ContactPage } from '../../components/admin/contact/ContactPage';
import { filterInAddress } from '../../components/admin/parts/filter-in-address';
import { CONTACT_FILTERS } from '../../../shared/schemas/admin-people';

export const Route = createFileRoute('/admin/contact')({
  ...filterInAddress('status', CONTACT_FILTERS, ({ queryClient, trpc }, deps) =>
    queryClient.prefetchQuery(trpc.admin.contact.list.queryOptions(deps)),
  ),
  component: ContactRoute,
});

function ContactRoute() {
  const { status } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <ContactPage status={status} onStatusChange={(next) => void navigate({ search: { status: next }, resetScroll: false })} />;
}
