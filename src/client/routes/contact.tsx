import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ContactPage } from '../components/info/ContactPage';

// ?subject= prefills the Subject field (the club's plan buttons use it); junk is dropped, not an error.
const contactSearch = z.object({
  subject: z.string().trim().max(200).optional().catch(undefined),
});

export const Route = createFileRoute('/contact')({
  validateSearch: contactSearch,
  component: ContactRoute,
});

function ContactRoute() {
  const { subject } = Route.useSearch();
  return <ContactPage initialSubject={subject ?? ''} />;
}
