import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { Button, ButtonLink } from './ui/Button';

/** Last-resort screen when a page fails to render (a failed data read shows an empty state instead). */
export function ErrorPage({ error }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  useEffect(() => {
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <section role="alert" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <TriangleAlert className="size-10 text-accent-600" aria-hidden="true" />
      <h1 className="font-display mt-4 text-2xl font-extrabold tracking-tight text-stone-950">Something went wrong</h1>
      <p className="mt-3 text-stone-600">This page could not be shown. Please try again in a moment.</p>
      <div className="mt-8 flex gap-3">
        <Button size="lg" onClick={() => void router.invalidate()}>
          Try Again
        </Button>
        <ButtonLink to="/" variant="secondary" size="lg">
          Back to Home
        </ButtonLink>
      </div>
    </section>
  );
}
