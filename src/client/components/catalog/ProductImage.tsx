import { useState } from 'react';
import { FALLBACK_PRODUCT_IMAGE } from '../../../shared/constants';
import type { DisplayImage } from '../../../shared/display-image';
import { ResponsiveImage } from '../ui/ResponsiveImage';

/** Products are shown in 4:5 boxes; the attributes keep that ratio whatever CSS makes of the box. */
const PRODUCT_BOX = { width: 800, height: 1000 };

interface ProductImageProps {
  image: DisplayImage | null | undefined;
  alt: string;
  /** The displayed width at each breakpoint (see ResponsiveImage). */
  sizes: string;
  className?: string;
  priority?: boolean;
  loading?: 'lazy' | 'eager';
}

/** A product photo that shows the fallback tee when the product has no image or it fails to load. */
export function ProductImage({ image, alt, sizes, className, priority = false, loading = 'lazy' }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!image || failedSrc === image.src) {
    return (
      <img
        src={FALLBACK_PRODUCT_IMAGE}
        alt={alt}
        {...PRODUCT_BOX}
        loading={priority ? 'eager' : loading}
        decoding="async"
        className={className}
      />
    );
  }
  return (
    <ResponsiveImage
      image={image}
      alt={alt}
      sizes={sizes}
      fallbackSize={PRODUCT_BOX}
      className={className}
      priority={priority}
      loading={loading}
      onError={() => setFailedSrc(image.src)}
    />
  );
}
