import { useState } from 'react';
import { FALLBACK_PRODUCT_IMAGE } from '../../../shared/constants';

interface ProductImageProps {
  src: string | null | undefined;
  alt: string;
  className?: string;
  width?: number;
  height?: number;
  loading?: 'lazy' | 'eager';
}

/** A product photo that shows the fallback tee when the product has no image or it fails to load. */
export function ProductImage({ src, alt, className, width = 800, height = 1000, loading = 'lazy' }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const url = !src || failedSrc === src ? FALLBACK_PRODUCT_IMAGE : src;
  return (
    <img
      src={url}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      decoding="async"
      className={className}
      onError={() => {
        if (src && url === src) setFailedSrc(src);
      }}
    />
  );
}
