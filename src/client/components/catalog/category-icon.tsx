import { CarFront, createLucideIcon, Motorbike, Shirt, type LucideProps } from 'lucide-react';

/** An outlined Latin cross in lucide's style (lucide's own Cross is a plus sign). */
export const LatinCross = createLucideIcon('latin-cross', [['path', { d: 'M10 2h4v5h5v4h-5v11h-4V11H5V7h5z', key: 'latin-cross' }]]);

/** An icon for a category's theme; any other category gets a tee. */
export function CategoryIcon({ slug, ...props }: LucideProps & { slug: string }) {
  switch (slug) {
    case 'motorcycle':
      return <Motorbike {...props} />;
    case 'car':
      return <CarFront {...props} />;
    case 'christian':
      return <LatinCross {...props} />;
    default:
      return <Shirt {...props} />;
  }
}
