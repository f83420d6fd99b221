import { useNavigate, useRouterState } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { SEARCH_MAX_LENGTH } from '../../../shared/search';

/** The query of the search page on show, so the field keeps what was searched; empty elsewhere. */
function useShownQuery(): string {
  return useRouterState({
    select: (state) => {
      const q: unknown = state.location.pathname === '/search' ? (state.location.search as { q?: unknown }).q : undefined;
      return typeof q === 'string' || typeof q === 'number' ? String(q) : '';
    },
  });
}

/**
 * The header's product search: a plain GET form to /search (it works before the page's scripts
 * run), navigated in the page once they do.
 */
export function HeaderSearch({ id, autoFocus = false, className = '' }: { id: string; autoFocus?: boolean; className?: string }) {
  const navigate = useNavigate();
  const shown = useShownQuery();
  return (
    <form
      role="search"
      action="/search"
      method="get"
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        const q = new FormData(event.currentTarget).get('q');
        void navigate({ to: '/search', search: { q: typeof q === 'string' ? q : '' } });
      }}
    >
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400" aria-hidden="true" />
        <input
          // A new search page shows its own query.
          key={shown}
          id={id}
          type="search"
          name="q"
          aria-label="Search"
          placeholder="Search tees..."
          defaultValue={shown}
          maxLength={SEARCH_MAX_LENGTH}
          autoFocus={autoFocus}
          enterKeyHint="search"
          className="h-10 w-full rounded-full border border-stone-300 bg-white pr-3 pl-9 text-sm text-stone-900 placeholder:text-stone-500 focus:border-accent-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent-600/30"
        />
      </div>
    </form>
  );
}
