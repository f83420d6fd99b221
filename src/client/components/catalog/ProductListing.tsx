import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { LoaderCircle, PackageSearch } from 'lucide-react';
import type { ReactNode } from 'react';
import type { SortOption } from '../../../shared/constants';
import { useTRPC, type RouterOutputs, type Trpc } from '../../trpc';
import { Button } from '../ui/Button';
import { gridImageSizes } from '../ui/grid-image-sizes';
import { ProductCard, ProductCardSkeletons } from './ProductCard';

export interface ProductListFilter {
  /** Category slug; absent lists every active category. */
  category?: string;
  /** Colour slug; absent lists every colour. */
  colour?: string;
  sort: SortOption;
}

/** One page at a time from the server (keyset cursor), so a large catalog never ships at once. */
export function productListOptions(trpc: Trpc, filter: ProductListFilter) {
  return trpc.catalog.products.infiniteQueryOptions(
    { category: filter.category, colour: filter.colour, sort: filter.sort },
    { getNextPageParam: (page) => page.nextCursor },
  );
}

const GRID = 'grid grid-cols-2 gap-x-4 gap-y-10 sm:gap-x-6 md:grid-cols-3 lg:grid-cols-4';
/** A card's width in GRID. */
const CARD_SIZES = gridImageSizes({ columns: { base: 2, md: 3, lg: 4 }, gap: { base: 16, sm: 24 } });
/** Cards in the first row on desktop (the first two rows on phones): the page's largest images above the fold. */
const FIRST_ROW = 4;

/** The product grid of the shop and category pages. */
export function ProductListing({ filter }: { filter: ProductListFilter }) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(productListOptions(trpc, filter));
  return (
    <ProductResults
      query={query}
      colour={filter.colour}
      empty={
        <div className="rounded-2xl border border-dashed border-stone-300 bg-stone-50 px-6 py-16 text-center" data-testid="products-empty">
          <PackageSearch className="mx-auto size-10 text-stone-400" aria-hidden="true" />
          <p className="mt-4 text-base font-medium text-stone-700">
            {filter.colour ? 'No products found in this colour.' : 'No products found in this category.'}
          </p>
        </div>
      }
    />
  );
}

/** What ProductResults reads of an infinite query of product pages (the shop's or a search's). */
interface ProductPages {
  data: InfiniteData<Pick<RouterOutputs['catalog']['products'], 'items'>, unknown> | undefined;
  isPending: boolean;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** A grid of products read a page at a time (the shop's or a search's): loading and empty states, then pages with "Load more". */
export function ProductResults({
  query,
  colour,
  empty,
}: {
  query: ProductPages;
  /** The colour filtered by: each card opens its product in it. */
  colour?: string;
  /** What an empty list shows (a failed read shows it too). */
  empty: ReactNode;
}) {
  const products = query.data?.pages.flatMap((page) => page.items) ?? [];

  if (query.isPending) {
    return (
      <div>
        <p role="status" className="mb-6 flex items-center gap-2 text-sm font-medium text-stone-600">
          <LoaderCircle className="size-4 animate-spin text-accent-600" aria-hidden="true" />
          Loading products...
        </p>
        <div className={GRID} aria-hidden="true">
          <ProductCardSkeletons count={8} />
        </div>
      </div>
    );
  }

  // A failed read shows the empty state too (docs/PRODUCT.md § Messages).
  if (products.length === 0) return empty;

  return (
    <div>
      <ul className={GRID} data-testid="product-grid">
        {products.map((product, index) => (
          <li key={product.id} className="flex">
            <ProductCard product={product} colour={colour} imageSizes={CARD_SIZES} priority={index < FIRST_ROW} headingLevel="h2" />
          </li>
        ))}
      </ul>
      <div className="mt-12 flex flex-col items-center gap-3">
        <p className="text-sm text-stone-500" role="status">
          {products.length === 1 ? 'Showing 1 product' : `Showing ${products.length} products`}
        </p>
        {query.isFetchNextPageError && <p className="text-sm font-medium text-red-700">Could not load more products. Please try again.</p>}
        {query.hasNextPage && (
          <Button
            variant="secondary"
            size="lg"
            className="min-w-40"
            onClick={() => void query.fetchNextPage()}
            busy={query.isFetchingNextPage}
            busyLabel="Loading..."
          >
            Load more
          </Button>
        )}
      </div>
    </div>
  );
}
