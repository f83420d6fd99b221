import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeft, Shirt } from 'lucide-react';
import { ProductDetail, ProductDetailSkeleton } from '../components/catalog/ProductDetail';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { prefetchQuietly } from '../prefetch';
import { useTRPC } from '../trpc';

export const Route = createFileRoute('/product/$slug')({
  loader: ({ context: { queryClient, trpc }, params }) => prefetchQuietly(queryClient, trpc.catalog.productBySlug.queryOptions({ slug: params.slug })),
  component: ProductPage,
});

function ProductPage() {
  const { slug } = Route.useParams();
  const trpc = useTRPC();
  const { data: product, isPending } = useQuery(trpc.catalog.productBySlug.queryOptions({ slug }));
  useDocumentTitle(isPending ? null : (product?.name ?? 'Product Not Found'));

  if (isPending) return <ProductDetailSkeleton />;
  if (!product) return <ProductNotFound />;
  return <ProductDetail key={product.id} product={product} />;
}

function ProductNotFound() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:py-32" aria-labelledby="product-not-found">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-accent-50 text-accent-700">
        <Shirt className="size-7" aria-hidden="true" />
      </span>
      <h1 id="product-not-found" className="font-display mt-6 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">
        Product Not Found
      </h1>
      <p className="mt-4 text-base leading-7 text-stone-600">This tee may have sold out for good, or the link may be mistyped.</p>
      <Link
        to="/shop"
        className="mt-8 inline-flex h-11 items-center gap-2 rounded-full bg-stone-900 px-6 text-sm font-semibold text-white transition hover:bg-stone-700"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Return to Shop
      </Link>
    </section>
  );
}
