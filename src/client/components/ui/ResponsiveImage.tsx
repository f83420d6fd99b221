import type { DisplayImage } from '../../../shared/display-image';

// A stored image as storefront pages show it (docs/ARCHITECTURE.md § Client): <picture> with the server's
// AVIF and WebP copies, so the browser downloads the smallest one that fills the space at the
// screen's density, never the print-resolution original.
//
//   <ResponsiveImage image={product.image} alt={product.name} sizes="(min-width: 1024px) 25vw, 50vw"
//     fallbackSize={{ width: 800, height: 1000 }} className="size-full object-cover" />
//
// `sizes` must say how wide the layout shows the image at each breakpoint (read it off the
// Tailwind classes of its container). `priority` is for the largest image above the fold only.

interface ResponsiveImageProps {
  image: DisplayImage;
  alt: string;
  /** The image's displayed width at each breakpoint, as a `sizes` attribute. */
  sizes: string;
  /** Width and height attributes when the image's own are unknown (an outside URL): keep the box's aspect ratio. */
  fallbackSize: { width: number; height: number };
  className?: string;
  /** The page's main image: fetched first (fetchpriority high) and never lazily. */
  priority?: boolean;
  /** 'eager' for an image hidden now but shown on a click (no wait when it is); lazy by default. */
  loading?: 'lazy' | 'eager';
  onError?: () => void;
}

export function ResponsiveImage({
  image,
  alt,
  sizes,
  fallbackSize,
  className,
  priority = false,
  loading = 'lazy',
  onError,
}: ResponsiveImageProps) {
  return (
    // display: contents, so the <img> lays out as the direct child of the box it fills, as before.
    <picture className="contents">
      {image.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img
        src={image.src}
        alt={alt}
        width={image.width ?? fallbackSize.width}
        height={image.height ?? fallbackSize.height}
        sizes={sizes}
        loading={priority ? 'eager' : loading}
        fetchPriority={priority ? 'high' : undefined}
        decoding="async"
        className={className}
        onError={onError}
      />
    </picture>
  );
}
