import { useQuery } from '@tanstack/react-query';
import { createFileRoute, notFound, redirect } from '@tanstack/react-router';
import { Shirt } from 'lucide-react';
import { ProductDetail, ProductDetailSkeleton } from '../components/catalog/ProductDetail';
import { CatalogNotFound } from '../components/catalog/CatalogNotFound';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { prefetchQuietly } from '../prefetch';
import { pageHead } from '../seo/page-head';
import { absolute } from '../seo/render-head';
import { useTRPC, type RouterOutputs } from '../trpc';

export const Route = createFileRoute('/product/$slug')({
  loader: async ({ context: { queryClient, trpc }, params }) => {
    const product = await prefetchQuietly(queryClient, trpc.catalog.productBySlug.queryOptions({ slug: params.slug }));
    // An unknown product is a 404 (the status of the server-rendered page); a failed read is not.
    if (product === null) throw notFound();
    // One address per product: another spelling the server finds it by (a trailing space) moves to it.
    if (product && product.slug !== params.slug) throw redirect({ to: '/product/$slug', params: { slug: product.slug }, statusCode: 301 });
    return { product };
  },
  head: ({ loaderData, match }) =>
    loaderData?.product ? productHead(loaderData.product, match.context.origin) : pageHead({ title: 'Product Not Found', noIndex: true }),
  component: ProductPage,
  notFoundComponent: ProductNotFound,
});

type Product = NonNullable<RouterOutputs['catalog']['productBySlug']>;

/** Title, description and preview image, with Product (and its Offer) and BreadcrumbList JSON-LD for search results. */
function productHead(product: Product, origin: string) {
  const path = `/product/${product.slug}`;
  const image = product.image?.src ?? product.image_url;
  return pageHead({
    title: product.name,
    description: product.description,
    path,
    image,
    jsonLd: [
      {
        '@type': 'Product',
        name: product.name,
        description: product.description,
        sku: String(product.sku_number),
        category: product.category_name,
        ...(image ? { image: [absolute(image, origin)] } : {}),
        offers: {
          '@type': 'Offer',
          url: `${origin}${path}`,
          price: product.price,
          priceCurrency: 'USD',
          // Printed to order: an active product can always be bought.
          availability: 'https://schema.org/InStock',
        },
      },
      {
        '@type': 'BreadcrumbList',
        itemListElement: [
          { '@type': 'ListItem', position: 1, name: 'Home', item: `${origin}/` },
          { '@type': 'ListItem', position: 2, name: product.category_name, item: `${origin}/category/${product.category_slug}` },
          { '@type': 'ListItem', position: 3, name: product.name, item: `${origin}${path}` },
        ],
      },
    ],
  });
}

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
    <CatalogNotFound icon={Shirt} title="Product Not Found" backLabel="Return to Shop">
      This tee may have sold out for good, or the link may be mistyped.
    </CatalogNotFound>
  );
}
