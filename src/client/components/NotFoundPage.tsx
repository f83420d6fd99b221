import { SearchX } from 'lucide-react';
import { useDocumentTitle } from './ui/use-document-title';
import { StoreLink } from './ui/StoreLink';

export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:py-32" aria-labelledby="not-found-heading">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-accent-50 text-accent-700">
        <SearchX className="size-7" aria-hidden="true" />
      </span>
      <p className="mt-6 text-sm font-semibold tracking-widest text-accent-700 uppercase">404</p>
      <h1 id="not-found-heading" className="font-display mt-2 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">
        Page Not Found
      </h1>
      <p className="mt-4 text-base leading-7 text-stone-600">
        Sorry, we couldn't find the page you're looking for. It may have moved, or the link may be mistyped.
      </p>
      <div className="mt-8 flex w-full max-w-xs flex-col gap-3 sm:max-w-none sm:flex-row sm:justify-center">
        <StoreLink
          to="/"
          className="inline-flex h-11 items-center justify-center rounded-full bg-stone-900 px-6 text-sm font-semibold text-white transition hover:bg-stone-700"
        >
          Back to Home
        </StoreLink>
        <StoreLink
          to="/shop"
          className="inline-flex h-11 items-center justify-center rounded-full border border-stone-300 px-6 text-sm font-semibold text-stone-800 transition hover:bg-stone-50"
        >
          Browse the Shop
        </StoreLink>
      </div>
      <p className="mt-8 text-sm text-stone-600">
        Looking for something specific?{' '}
        <StoreLink to="/contact" className="font-semibold text-accent-700 underline underline-offset-2 hover:text-accent-800">
          Contact us
        </StoreLink>{' '}
        and we'll help you find it.
      </p>
    </section>
  );
}
