import { Link } from '@tanstack/react-router';
import { SearchX } from 'lucide-react';
import { MessagePage } from './MessagePage';
import { ButtonLink } from './ui/Button';
import { useDocumentTitle } from './ui/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <MessagePage
      icon={SearchX}
      eyebrow="404"
      title="Page Not Found"
      actions={
        <>
          <ButtonLink to="/" size="lg">
            Back to Home
          </ButtonLink>
          <ButtonLink to="/shop" variant="secondary" size="lg">
            Browse the Shop
          </ButtonLink>
        </>
      }
    >
      <p>Sorry, we couldn't find the page you're looking for. It may have moved, or the link may be mistyped.</p>
      <p className="mt-8 text-sm">
        Looking for something specific?{' '}
        <Link to="/contact" className="font-semibold text-accent-700 underline underline-offset-2 hover:text-accent-800">
          Contact us
        </Link>{' '}
        and we'll help you find it.
      </p>
    </MessagePage>
  );
}
