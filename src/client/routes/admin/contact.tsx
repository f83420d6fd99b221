import { createFileRoute } from '@tanstack/react-router';
import { ContactPage } from '../../components/admin/contact/ContactPage';
import { filterInAddress } from '../../components/admin/parts/filter-in-address';
import { CONTACT_FILTERS } from '../../../shared/schemas/admin-people';

export const Route = createFileRoute('/admin/contact')(
  filterInAddress('status', CONTACT_FILTERS, {
    prefetch: ({ queryClient, trpc }, deps) => queryClient.prefetchQuery(trpc.admin.contact.list.queryOptions(deps)),
    page: (status, onStatusChange) => <ContactPage status={status} onStatusChange={onStatusChange} />,
  }),
);
