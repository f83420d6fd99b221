import { createFileRoute } from '@tanstack/react-router';
import { ContactPage } from '../components/info/ContactPage';
import { pageHead } from '../seo/page-head';
import { searchParams, text } from '../search-params';

// ?subject= prefills the Subject field (the club's plan buttons use it); junk is dropped, not an error.
const contactSearch = searchParams<{ subject?: string }>()((raw) => ({ subject: text(raw.subject, 200) }));

export const Route = createFileRoute('/contact')({
  validateSearch: contactSearch,
  head: () =>
    pageHead({ title: 'Contact Us', description: 'Questions about an order, sizing or the club? Send us a message.', path: '/contact' }),
  component: ContactRoute,
});

function ContactRoute() {
  const { subject } = Route.useSearch();
  return <ContactPage initialSubject={subject ?? ''} />;
}
