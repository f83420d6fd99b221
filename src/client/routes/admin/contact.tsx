import { createFileRoute } from '@tanstack/react-router';
import { ContactPage } from '../../components/admin/contact/ContactPage';
import { contactSearchSchema, listInputOf } from '../../components/admin/contact/contact-search';

export const Route = createFileRoute('/admin/contact')({
  validateSearch: contactSearchSchema,
  loaderDeps: ({ search }) => listInputOf(search),
  // Not awaited: the list shows its loading state instead of holding the navigation.
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.admin.contact.list.queryOptions(deps));
  },
  component: ContactPage,
});
