import { Link } from '@tanstack/react-router';
import { formatMoney } from '../../../shared/money';
import type { RouterOutputs } from '../../trpc';
import { ProductImage } from './ProductImage';

/** A product as catalog.featuredProducts and catalog.products list it. */
type ProductCardData = RouterOutputs['catalog']['featuredProducts'][number];

export function ProductCard({ product, eager = false }: { product: ProductCardData; eager?: boolean }) {
  return (
    <article className="group relative flex w-full flex-col" data-testid="product-card">
      <div className="relative aspect-[4/5] overflow-hidden rounded-xl bg-stone-100 ring-1 ring-stone-900/5">
        <ProductImage
          src={product.image_url}
          alt={product.name}
          loading={eager ? 'eager' : 'lazy'}
          className="size-full object-cover transition duration-300 group-hover:scale-[1.03]"
        />
      </div>
      <div className="mt-3 flex flex-1 flex-col gap-1">
        <p className="text-xs font-medium tracking-wide text-stone-500 uppercase">{product.category_name}</p>
        <h3 className="text-sm font-semibold text-stone-900 sm:text-base">
          {/* The link covers the whole card; its text is the product name. */}
          <Link
            to="/product/$slug"
            params={{ slug: product.slug }}
            className="after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-4 focus-visible:after:outline-accent-600"
          >
            {product.name}
          </Link>
        </h3>
        <p className="mt-auto text-sm font-semibold text-accent-700 sm:text-base" data-testid="product-price">
          {formatMoney(product.price)}
        </p>
      </div>
    </article>
  );
}

export function ProductCardSkeleton() {
  return (
    <div aria-hidden="true" className="flex animate-pulse flex-col">
      <div className="aspect-[4/5] rounded-xl bg-stone-200" />
      <div className="mt-3 h-3 w-1/3 rounded bg-stone-200" />
      <div className="mt-2 h-4 w-3/4 rounded bg-stone-200" />
      <div className="mt-2 h-4 w-1/4 rounded bg-stone-200" />
    </div>
  );
}
