import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ArrowLeft, Shirt } from 'lucide-react';
import { ProductDetail, ProductDetailSkeleton } from '../components/catalog/ProductDetail';
import { MessagePage } from '../components/MessagePage';
import { ButtonLink } from '../components/ui/Button';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { prefetchQuietly } from '../prefetch';
import { useTRPC } from '../trpc';

export const Route = createFileRoute('/product/$slug')({
  loader: ({ context: { queryClient, trpc }, params }) =>
    prefetchQuietly(queryClient, trpc.catalog.productBySlug.queryOptions({ slug: params.slug })),
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
    <MessagePage
      icon={Shirt}
      title="Product Not Found"
      actions={
        <ButtonLink to="/shop" size="lg" icon={ArrowLeft}>
          Return to Shop
        </ButtonLink>
      }
    >
      This tee may have sold out for good, or the link may be mistyped.
    </MessagePage>
  );
}
