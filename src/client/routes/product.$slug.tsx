import { useQuery } from '@tanstack/react-query';
import { createFileRoute, notFound, redirect } from '@tanstack/react-router';
import { Shirt } from 'lucide-react';
import { ProductDetail, ProductDetailSkeleton } from '../components/catalog/ProductDetail';
import { CatalogNotFound } from '../components/catalog/CatalogNotFound';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { prefetchQuietly } from '../prefetch';
import { searchParams, text } from '../search-params';
import { variantSku } from '../../shared/colours';
import { pageHead } from '../seo/page-head';
import { absolute } from '../seo/render-head';
import { useTRPC, type RouterOutputs } from '../trpc';

/** ?colour=<slug>: the colour the page opens on (the server renders it); absent or unknown, the first. */
const validateSearch = searchParams<{ colour?: string }>()((raw) => ({
  colour: typeof raw.colour === 'number' ? String(raw.colour) : text(raw.colour, 80),
}));

export const Route = createFileRoute('/product/$slug')({
  validateSearch,
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

/**
 * Title, description and preview image, with ProductGroup and BreadcrumbList JSON-LD for search
 * results: one Product with its Offer per variant (colour and size), so each size shows its price.
 * The canonical address is the product's whatever colour the page was opened on.
 */
function productHead(product: Product, origin: string) {
  const path = `/product/${product.slug}`;
  const image = product.image?.src ?? product.image_url;
  const variants = product.colours.flatMap((colour) =>
    colour.sizes.map((size) => ({
      '@type': 'Product',
      sku: variantSku(product.sku_number, colour.code, size),
      color: colour.name,
      size,
      offers: {
        '@type': 'Offer',
        url: `${origin}${path}?colour=${colour.slug}`,
        price: product.prices[size] ?? product.price,
        priceCurrency: 'USD',
        // Printed to order: an offered variant can always be bought.
        availability: 'https://schema.org/InStock',
      },
    })),
  );
  return pageHead({
    title: product.name,
    description: product.description,
    path,
    image,
    jsonLd: [
      {
        '@type': 'ProductGroup',
        name: product.name,
        description: product.description,
        productGroupID: String(product.sku_number),
        category: product.category_name,
        ...(image ? { image: [absolute(image, origin)] } : {}),
        variesBy: ['https://schema.org/color', 'https://schema.org/size'],
        hasVariant: variants,
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
  const { colour } = Route.useSearch();
  const navigate = Route.useNavigate();
  const trpc = useTRPC();
  const { data: product, isPending } = useQuery(trpc.catalog.productBySlug.queryOptions({ slug }));
  useDocumentTitle(isPending ? null : (product?.name ?? 'Product Not Found'));

  if (isPending) return <ProductDetailSkeleton />;
  if (!product) return <ProductNotFound />;
  return (
    <ProductDetail
      key={product.id}
      product={product}
      colourSlug={colour}
      // The address carries the colour, so it can be shared; replaced, so Back leaves the product.
      onColourChange={(next) => void navigate({ search: { colour: next }, replace: true, resetScroll: false })}
    />
  );
}

function ProductNotFound() {
  return (
    <CatalogNotFound icon={Shirt} title="Product Not Found" backLabel="Return to Shop">
      This tee may have sold out for good, or the link may be mistyped.
    </CatalogNotFound>
  );
}
