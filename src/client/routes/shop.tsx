import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { SORT_OPTIONS } from '../../shared/constants';
import { DEFAULT_SORT, SORT_LABELS, shopSearch } from '../components/catalog/catalog-search';
import { ColourFilter } from '../components/catalog/ColourFilter';
import { ProductListing, productListOptions } from '../components/catalog/ProductListing';
import { SortSelect } from '../components/catalog/SortSelect';
import { ToggleButton } from '../components/ui/ToggleButton';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { pageHead } from '../seo/page-head';
import { useTRPC } from '../trpc';

export const Route = createFileRoute('/shop')({
  validateSearch: shopSearch,
  // The default sort stays out of the address, so /shop is the plain shop.
  search: { middlewares: [stripSearchParams({ sort: DEFAULT_SORT })] },
  loaderDeps: ({ search }) => ({ category: search.category, colour: search.colour, sort: search.sort }),
  // Not awaited: the page shows 'Loading products...' instead of holding the navigation (the server
  // waits for both reads before it sends the page, so the colour filter is in it).
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchInfiniteQuery(productListOptions(trpc, deps));
    void queryClient.prefetchQuery(trpc.catalog.colours.queryOptions({ category: deps.category }));
  },
  head: () =>
    pageHead({
      title: 'Shop',
      description: 'Every tee in the store: motorcycle, car, christian and more, printed to order.',
      path: '/shop',
    }),
  component: ShopPage,
});

function ShopPage() {
  const { category, colour, sort } = Route.useSearch();
  const navigate = Route.useNavigate();
  const trpc = useTRPC();
  // A failed read leaves just the All button (docs/PRODUCT.md § Messages).
  const categories = useQuery(trpc.catalog.categories.queryOptions()).data ?? [];
  const selected = categories.find((c) => c.slug === category);
  useDocumentTitle(selected ? `${selected.name} T-Shirts` : 'Shop');

  const setCategory = (slug: string | undefined) => {
    void navigate({ search: (prev) => ({ ...prev, category: slug }), resetScroll: false });
  };
  const setColour = (slug: string | undefined) => {
    void navigate({ search: (prev) => ({ ...prev, colour: slug }), resetScroll: false });
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <header className="max-w-2xl">
        <p className="text-sm font-semibold tracking-widest text-accent-700 uppercase">Shop</p>
        <h1 className="font-display mt-2 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">
          {selected ? `${selected.name} T-Shirts` : 'All T-Shirts'}
        </h1>
        <p className="mt-3 text-base leading-7 text-stone-600">
          {selected?.description ?? 'Original designs for riders, gearheads and believers, printed on demand and shipped free.'}
        </p>
      </header>

      <div className="mt-8 flex flex-col gap-4 border-b border-stone-200 pb-6 md:flex-row md:items-center md:justify-between">
        <div role="group" aria-label="Filter by category" className="flex flex-wrap gap-2">
          <ToggleButton size="md" pressed={!category} onClick={() => setCategory(undefined)}>
            All
          </ToggleButton>
          {categories.map((c) => (
            <ToggleButton key={c.id} size="md" pressed={c.slug === category} onClick={() => setCategory(c.slug)}>
              {c.name}
            </ToggleButton>
          ))}
        </div>
        <SortSelect
          value={sort}
          options={SORT_OPTIONS}
          labels={SORT_LABELS}
          onChange={(next) => void navigate({ search: (prev) => ({ ...prev, sort: next }), resetScroll: false })}
        />
      </div>
      <div className="mt-4">
        <ColourFilter category={category} colour={colour} onChange={setColour} />
      </div>

      <div className="mt-8">
        <ProductListing filter={{ category, colour, sort }} />
      </div>
    </div>
  );
}
