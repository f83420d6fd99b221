import { useQuery } from '@tanstack/react-query';
import { createFileRoute, notFound, redirect, stripSearchParams } from '@tanstack/react-router';
import { SearchX } from 'lucide-react';
import { useState } from 'react';
import { CatalogNotFound } from '../components/catalog/CatalogNotFound';
import { CategoryIcon } from '../components/catalog/category-icon';
import { SORT_OPTIONS } from '../../shared/constants';
import { categorySearch, DEFAULT_SORT, SORT_LABELS } from '../components/catalog/catalog-search';
import { ColourFilter } from '../components/catalog/ColourFilter';
import { ProductListing, productListOptions } from '../components/catalog/ProductListing';
import { SortSelect } from '../components/catalog/SortSelect';
import { ResponsiveImage } from '../components/ui/ResponsiveImage';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { prefetchQuietly } from '../prefetch';
import { pageHead } from '../seo/page-head';
import { useTRPC, type RouterOutputs } from '../trpc';
import { BackLink } from '../components/ui/BackLink';

export const Route = createFileRoute('/category/$slug')({
  validateSearch: categorySearch,
  search: { middlewares: [stripSearchParams({ sort: DEFAULT_SORT })] },
  loaderDeps: ({ search }) => ({ sort: search.sort, colour: search.colour }),
  loader: async ({ context: { queryClient, trpc }, params, deps }) => {
    // The products stream in behind 'Loading products...'; the banner (or not-found) waits for its category.
    // The colour filter too (the server waits for both before it sends the page).
    void queryClient.prefetchInfiniteQuery(productListOptions(trpc, { category: params.slug, ...deps }));
    void queryClient.prefetchQuery(trpc.catalog.colours.queryOptions({ category: params.slug }));
    const category = await prefetchQuietly(queryClient, trpc.catalog.categoryBySlug.queryOptions({ slug: params.slug }));
    // An unknown category is a 404 (the status of the server-rendered page); a failed read is not.
    if (category === null) throw notFound();
    // One address per category: another spelling the server finds it by (a trailing space) moves to it.
    if (category && category.slug !== params.slug) {
      throw redirect({ to: '/category/$slug', params: { slug: category.slug }, search: deps, statusCode: 301 });
    }
    return { category };
  },
  head: ({ loaderData }) =>
    loaderData?.category
      ? pageHead({
          title: `${loaderData.category.name} T-Shirts`,
          description: loaderData.category.description,
          path: `/category/${loaderData.category.slug}`,
          image: loaderData.category.image_url,
        })
      : pageHead({ title: 'Category Not Found', noIndex: true }),
  notFoundComponent: CategoryNotFound,
  component: CategoryPage,
});

type Category = NonNullable<RouterOutputs['catalog']['categoryBySlug']>;

function CategoryPage() {
  const { slug } = Route.useParams();
  const { sort, colour } = Route.useSearch();
  const navigate = Route.useNavigate();
  const trpc = useTRPC();
  const { data: category, isPending } = useQuery(trpc.catalog.categoryBySlug.queryOptions({ slug }));

  if (isPending) return <BannerSkeleton />;
  if (!category) return <CategoryNotFound />;

  return (
    <>
      <CategoryBanner category={category} />
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-12 lg:px-8">
        <div className="flex flex-col gap-4 border-b border-stone-200 pb-6 sm:flex-row sm:items-center sm:justify-between">
          <BackLink to="/shop" weight="semibold">
            All products
          </BackLink>
          <SortSelect
            value={sort}
            options={SORT_OPTIONS}
            labels={SORT_LABELS}
            onChange={(next) => void navigate({ search: (prev) => ({ ...prev, sort: next }), resetScroll: false })}
          />
        </div>
        <div className="mt-4">
          <ColourFilter
            category={category.slug}
            colour={colour}
            onChange={(next) => void navigate({ search: (prev) => ({ ...prev, colour: next }), resetScroll: false })}
          />
        </div>
        <div className="mt-8">
          <ProductListing filter={{ category: category.slug, colour, sort }} />
        </div>
      </div>
    </>
  );
}

function CategoryBanner({ category }: { category: Category }) {
  useDocumentTitle(`${category.name} T-Shirts`);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const image = category.image && failedSrc !== category.image.src ? category.image : null;
  return (
    <section
      aria-labelledby="category-heading"
      className="relative isolate overflow-hidden bg-stone-950 text-white"
      data-testid="category-banner"
    >
      {image ? (
        // Full width, and the largest image above the fold of the page.
        <ResponsiveImage
          image={image}
          alt=""
          sizes="100vw"
          fallbackSize={{ width: 1600, height: 600 }}
          priority
          className="absolute inset-0 -z-20 size-full object-cover"
          onError={() => setFailedSrc(image.src)}
        />
      ) : (
        <CategoryIcon
          slug={category.slug}
          className="absolute top-1/2 right-8 -z-20 size-48 -translate-y-1/2 text-stone-800"
          aria-hidden="true"
        />
      )}
      {/* Keeps the text readable over any banner image. */}
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-gradient-to-r from-stone-950/90 via-stone-950/70 to-stone-950/20" />
      <div className="mx-auto flex min-h-64 max-w-7xl flex-col justify-end px-4 py-10 sm:min-h-80 sm:px-6 sm:py-14 lg:px-8">
        <p className="text-sm font-semibold tracking-widest text-accent-500 uppercase">Collection</p>
        <h1 id="category-heading" className="font-display mt-2 text-4xl font-extrabold tracking-tight sm:text-5xl">
          {category.name}
        </h1>
        <p className="mt-4 max-w-2xl text-base leading-7 text-stone-200 sm:text-lg">{category.description}</p>
      </div>
    </section>
  );
}

function BannerSkeleton() {
  return (
    <div aria-hidden="true" className="animate-pulse bg-stone-200">
      <div className="mx-auto flex min-h-64 max-w-7xl flex-col justify-end px-4 py-10 sm:min-h-80 sm:px-6 sm:py-14 lg:px-8">
        <div className="h-10 w-48 rounded bg-stone-300" />
        <div className="mt-4 h-5 w-full max-w-xl rounded bg-stone-300" />
      </div>
    </div>
  );
}

function CategoryNotFound() {
  return (
    <CatalogNotFound icon={SearchX} title="Category Not Found" backLabel="Browse All Products">
      The category you're looking for doesn't exist.
    </CatalogNotFound>
  );
}
