import { createFileRoute } from '@tanstack/react-router';
import { ContactPage } from '../../components/admin/contact/ContactPage';
import { contactSearchSchema, listInputOf } from '../../components/admin/contact/contact-search';
import { listInAddress } from '../../components/admin/parts/list-in-address';

export const Route = createFileRoute('/admin/contact')({
  ...listInAddress(contactSearchSchema, listInputOf, ({ queryClient, trpc }, input) => {
    void queryClient.prefetchQuery(trpc.admin.contact.list.queryOptions(input));
  }),
  component: ContactPage,
});
