import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, redirect, stripSearchParams } from '@tanstack/react-router';
import { SearchX } from 'lucide-react';
import type { SearchSortOption } from '../../shared/constants';
import { searchWords } from '../../shared/search';
import { SEARCH_SORT_LABELS, searchPageSearch } from '../components/catalog/catalog-search';
import { ProductResults } from '../components/catalog/ProductListing';
import { SortSelect } from '../components/catalog/SortSelect';
import { ToggleButton } from '../components/ui/ToggleButton';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { pageHead } from '../seo/page-head';
import { useTRPC, type Trpc } from '../trpc';
import { SEARCH_SORT_OPTIONS } from '../../shared/constants';

// The storefront's search (README.md § Search): server-rendered like the shop and kept under its
// address, the query included (docs/adr/0026). No words to search (an empty query, punctuation)
// is the shop.

interface SearchFilter {
  q: string;
  category: string | undefined;
  sort: SearchSortOption;
}

function searchListOptions(trpc: Trpc, filter: SearchFilter) {
  return trpc.catalog.search.infiniteQueryOptions(
    { q: filter.q, category: filter.category, sort: filter.sort },
    { getNextPageParam: (page) => page.nextCursor },
  );
}

const titleOf = (q: string) => `Search results for "${q}"`;

export const Route = createFileRoute('/search')({
  validateSearch: searchPageSearch,
  search: { middlewares: [stripSearchParams({ sort: 'relevance' })] },
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, trpc }, deps }) => {
    if (searchWords(deps.q).length === 0) throw redirect({ to: '/shop', search: { category: deps.category } });
    // Not awaited: the page shows 'Loading products...' instead of holding the navigation.
    void queryClient.prefetchInfiniteQuery(searchListOptions(trpc, deps));
  },
  head: ({ match }) =>
    pageHead({
      title: titleOf(match.search.q),
      description: `T-shirts matching "${match.search.q}".`,
      path: `/search?q=${encodeURIComponent(match.search.q)}`,
      // A search's results are for the visitor who asked, not for search engines.
      noIndex: true,
    }),
  component: SearchPage,
});

function SearchPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const trpc = useTRPC();
  useDocumentTitle(titleOf(search.q));
  // A failed read leaves just the All button, as on the shop.
  const categories = useQuery(trpc.catalog.categories.queryOptions()).data ?? [];
  const results = useInfiniteQuery(searchListOptions(trpc, search));

  const setCategory = (slug: string | undefined) => void navigate({ search: (prev) => ({ ...prev, category: slug }), resetScroll: false });

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <header className="max-w-2xl">
        <p className="text-sm font-semibold tracking-widest text-accent-700 uppercase">Search</p>
        <h1 className="font-display mt-2 text-3xl font-extrabold tracking-tight break-words text-stone-950 sm:text-4xl">
          {titleOf(search.q)}
        </h1>
      </header>

      <div className="mt-8 flex flex-col gap-4 border-b border-stone-200 pb-6 md:flex-row md:items-center md:justify-between">
        <div role="group" aria-label="Filter by category" className="flex flex-wrap gap-2">
          <ToggleButton size="md" pressed={!search.category} onClick={() => setCategory(undefined)}>
            All
          </ToggleButton>
          {categories.map((c) => (
            <ToggleButton key={c.id} size="md" pressed={c.slug === search.category} onClick={() => setCategory(c.slug)}>
              {c.name}
            </ToggleButton>
          ))}
        </div>
        <SortSelect
          value={search.sort}
          options={SEARCH_SORT_OPTIONS}
          labels={SEARCH_SORT_LABELS}
          onChange={(sort) => void navigate({ search: (prev) => ({ ...prev, sort }), resetScroll: false })}
        />
      </div>

      <div className="mt-8">
        <ProductResults
          query={results}
          empty={
            <div
              className="rounded-2xl border border-dashed border-stone-300 bg-stone-50 px-6 py-16 text-center"
              data-testid="search-empty"
            >
              <SearchX className="mx-auto size-10 text-stone-400" aria-hidden="true" />
              <p className="mt-4 text-base font-medium break-words text-stone-800">No results for "{search.q}"</p>
              {categories.length > 0 && (
                <nav aria-label="Categories" className="mt-6">
                  <p className="text-sm text-stone-600">Browse a category instead:</p>
                  <ul className="mt-3 flex flex-wrap justify-center gap-2">
                    {categories.map((c) => (
                      <li key={c.id}>
                        <Link
                          to="/category/$slug"
                          params={{ slug: c.slug }}
                          className="inline-flex h-10 items-center rounded-full border border-stone-300 bg-white px-4 text-sm font-semibold text-stone-800 transition hover:border-stone-400 hover:bg-stone-100"
                        >
                          {c.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </nav>
              )}
            </div>
          }
        />
      </div>
    </div>
  );
}
