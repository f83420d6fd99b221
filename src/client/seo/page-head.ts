import { storeConfig } from '../store-config';

// What a route's `head()` returns for the server-rendered page (src/client/seo/render-head.ts):
// title, description, canonical URL, Open Graph and Twitter card tags, and any JSON-LD.

const DEFAULT_DESCRIPTION = 'Print-on-demand t-shirts for riders, car lovers and believers, plus a monthly tee subscription club.';

export interface PageHeadInput {
  /** The page's own title; the store name is added ("Shop | Threadline"). None for the home page. */
  title?: string;
  description?: string | null;
  /** The page's path, for its canonical URL. */
  path?: string;
  /** A site-relative image for link previews. */
  image?: string | null;
  /** Schema.org objects, each written as a JSON-LD script. */
  jsonLd?: object[];
  /** Pages that should not be indexed (the cart, not-found pages). */
  noIndex?: boolean;
}

/** "{title} | {store}", or the store name alone (the home page); the tab title in the browser too. */
export function pageTitle(title: string | null | undefined): string {
  return title ? `${title} | ${storeConfig.storeName}` : storeConfig.storeName;
}

export function pageHead({ title, description, path, image, jsonLd = [], noIndex = false }: PageHeadInput) {
  const fullTitle = pageTitle(title);
  const text = description?.trim() || DEFAULT_DESCRIPTION;
  return {
    meta: [
      { title: fullTitle },
      { name: 'description', content: text },
      ...(noIndex ? [{ name: 'robots', content: 'noindex' }] : []),
      { property: 'og:site_name', content: storeConfig.storeName },
      {
        property: 'og:type',
        content: jsonLd.some((item) => ['Product', 'ProductGroup'].includes((item as { '@type'?: string })['@type'] ?? ''))
          ? 'product'
          : 'website',
      },
      { property: 'og:title', content: fullTitle },
      { property: 'og:description', content: text },
      ...(path ? [{ property: 'og:url', content: path }] : []),
      ...(image ? [{ property: 'og:image', content: image }] : []),
      { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
      { name: 'twitter:title', content: fullTitle },
      { name: 'twitter:description', content: text },
      ...(image ? [{ name: 'twitter:image', content: image }] : []),
    ],
    links: path ? [{ rel: 'canonical', href: path }] : [],
    scripts: jsonLd.map((item) => ({
      type: 'application/ld+json',
      children: JSON.stringify({ '@context': 'https://schema.org', ...item }),
    })),
  };
}
