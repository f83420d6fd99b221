import { Link } from '@tanstack/react-router';
import { formatMoney } from '../../../shared/money';
import type { RouterOutputs } from '../../trpc';
import { ProductImage } from './ProductImage';

/** A product as catalog.featuredProducts and catalog.products list it. */
type ProductCardData = RouterOutputs['catalog']['featuredProducts'][number];

/** The link covers the whole card (its text is the product name); its focus ring circles the card. */
const cardLinkClass =
  'after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-4 focus-visible:after:outline-accent-600';

interface ProductCardProps {
  product: ProductCardData;
  /** A colour's slug: the link opens the product in that colour (the shop's colour filter). */
  colour?: string;
  /** The card's width at each breakpoint in the grid that shows it (a `sizes` attribute). */
  imageSizes: string;
  /** In the first row of the page's main grid: its image is fetched first. */
  priority?: boolean;
  /** The name's heading level: one under the heading the grid sits below (h2 right under a page's h1). */
  headingLevel?: 'h2' | 'h3';
}

export function ProductCard({ product, colour, imageSizes, priority = false, headingLevel: Heading = 'h3' }: ProductCardProps) {
  return (
    <article className="group relative flex w-full flex-col" data-testid="product-card">
      <div className="relative aspect-[4/5] overflow-hidden rounded-xl bg-stone-100 ring-1 ring-stone-900/5">
        <ProductImage
          image={product.image}
          alt={product.name}
          sizes={imageSizes}
          priority={priority}
          className="size-full object-cover transition duration-300 group-hover:scale-[1.03]"
        />
      </div>
      <div className="mt-3 flex flex-1 flex-col gap-1">
        <p className="text-xs font-medium tracking-wide text-stone-500 uppercase">{product.category_name}</p>
        <Heading className="text-sm font-semibold text-stone-900 sm:text-base">
          <Link to="/product/$slug" params={{ slug: product.slug }} search={colour ? { colour } : {}} className={cardLinkClass}>
            {product.name}
          </Link>
        </Heading>
        {product.colour_count > 1 && (
          <p className="text-xs text-stone-600" data-testid="product-colours">
            {product.colour_count} colours
          </p>
        )}
        <p className="mt-auto text-sm font-semibold text-accent-700 sm:text-base" data-testid="product-price">
          {formatMoney(product.price)}
        </p>
      </div>
    </article>
  );
}

/** `count` placeholder cards, for a product grid that is loading. */
export function ProductCardSkeletons({ count }: { count: number }) {
  return Array.from({ length: count }, (_, i) => (
    <div key={i} aria-hidden="true" className="flex animate-pulse flex-col">
      <div className="aspect-[4/5] rounded-xl bg-stone-200" />
      <div className="mt-3 h-3 w-1/3 rounded bg-stone-200" />
      <div className="mt-2 h-4 w-3/4 rounded bg-stone-200" />
      <div className="mt-2 h-4 w-1/4 rounded bg-stone-200" />
    </div>
  ));
}
