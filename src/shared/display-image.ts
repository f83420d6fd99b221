// An image as storefront pages show it (docs/ARCHITECTURE.md § Client): the display copies the
// server made of a stored original, ready for <picture>, so no page downloads a print-resolution
// file. Built by the server (src/server/display-copies.ts), rendered by ResponsiveImage.

export const DISPLAY_IMAGE_TYPES = ['image/avif', 'image/webp'] as const;
export type DisplayImageType = (typeof DISPLAY_IMAGE_TYPES)[number];

export interface DisplayImage {
  /** The largest WebP copy; the URL itself when it has no copies (an outside URL, or copies not made yet). */
  src: string;
  /** The original's pixels, for the width and height attributes; null when unknown. */
  width: number | null;
  height: number | null;
  /** One per format, best first: "<url> 320w, <url> 640w, ..."; empty when the image has no copies. */
  sources: { type: DisplayImageType; srcset: string }[];
}

const isPixels = (value: unknown) => value === null || (typeof value === 'number' && Number.isInteger(value) && value > 0);
const isSource = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  'type' in value &&
  (DISPLAY_IMAGE_TYPES as readonly unknown[]).includes(value.type) &&
  'srcset' in value &&
  typeof value.srcset === 'string' &&
  value.srcset !== '';

/**
 * Whether a value read back from somewhere untrusted (a cart in localStorage) is a well-formed
 * DisplayImage. By hand, not with zod: the cart loads with the store's first page.
 */
export function isDisplayImage(value: unknown): value is DisplayImage {
  if (typeof value !== 'object' || value === null) return false;
  const image = value as Partial<Record<keyof DisplayImage, unknown>>;
  return (
    typeof image.src === 'string' &&
    image.src !== '' &&
    isPixels(image.width) &&
    isPixels(image.height) &&
    Array.isArray(image.sources) &&
    image.sources.every(isSource)
  );
}

/** An image known only by its URL: shown as it is. */
export const plainImage = (url: string): DisplayImage => ({ src: url, width: null, height: null, sources: [] });
