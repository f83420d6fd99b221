import { Link } from '@tanstack/react-router';
import { ArrowRight } from 'lucide-react';
import { useState } from 'react';
import type { RouterOutputs } from '../../trpc';
import { ResponsiveImage } from '../ui/ResponsiveImage';
import { CategoryIcon } from './category-icon';

type CategoryTileData = RouterOutputs['catalog']['categories'][number];

/** The name's link covers the tile; its focus ring is drawn inside, as the tile clips what lies outside its rounded edge. */
const tileLinkClass =
  'after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:-outline-offset-4 focus-visible:after:outline-accent-600';

/**
 * Shop-by-category tile: image (or a themed placeholder when it is missing or fails), name,
 * description, link. `imageSizes`: the tile's width at each breakpoint of the grid showing it.
 */
export function CategoryTile({ category, imageSizes }: { category: CategoryTileData; imageSizes: string }) {
  return (
    <article
      className="group relative flex w-full flex-col overflow-hidden rounded-2xl bg-white ring-1 ring-stone-200 transition hover:shadow-lg hover:ring-stone-300"
      data-testid="category-tile"
    >
      <div className="relative aspect-[16/9] overflow-hidden bg-gradient-to-br from-stone-800 to-stone-950">
        <CategoryImage category={category} sizes={imageSizes} />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h3 className="font-display text-lg font-bold text-stone-950">
          <Link to="/category/$slug" params={{ slug: category.slug }} className={tileLinkClass}>
            {category.name}
          </Link>
        </h3>
        <p className="mt-1.5 line-clamp-2 text-sm leading-6 text-stone-600">{category.description}</p>
        <span className="mt-4 inline-flex items-center gap-1.5 text-sm font-semibold text-accent-700" aria-hidden="true">
          Shop {category.name}
          <ArrowRight className="size-4 transition group-hover:translate-x-0.5" />
        </span>
      </div>
    </article>
  );
}

/** The category's image, or its icon when it has none or the image fails to load. */
function CategoryImage({ category, sizes }: { category: CategoryTileData; sizes: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const image = category.image && failedSrc !== category.image.src ? category.image : null;
  if (!image) {
    return (
      <div className="flex size-full items-center justify-center" role="img" aria-label={`${category.name} t-shirts`}>
        <CategoryIcon slug={category.slug} className="size-16 text-accent-500" strokeWidth={1.5} aria-hidden="true" />
      </div>
    );
  }
  return (
    <ResponsiveImage
      image={image}
      alt={`${category.name} t-shirts`}
      sizes={sizes}
      fallbackSize={{ width: 800, height: 600 }}
      className="size-full object-cover transition duration-500 group-hover:scale-105"
      onError={() => setFailedSrc(image.src)}
    />
  );
}

/** `count` placeholder tiles, for a category grid that is loading. */
export function CategoryTileSkeletons({ count }: { count: number }) {
  return Array.from({ length: count }, (_, i) => (
    <div key={i} aria-hidden="true" className="animate-pulse overflow-hidden rounded-2xl ring-1 ring-stone-200">
      <div className="aspect-[16/9] bg-stone-200" />
      <div className="space-y-2 p-5">
        <div className="h-5 w-1/2 rounded bg-stone-200" />
        <div className="h-4 w-full rounded bg-stone-200" />
        <div className="h-4 w-2/3 rounded bg-stone-200" />
      </div>
    </div>
  ));
}
