import type { AnyRouteMatch } from '@tanstack/react-router';
import { escapeMarkup } from '../../shared/markup';

// The <head> elements of a page rendered on the server, from its routes' `head()` options: the
// deepest route's title and each meta name or property win, as TanStack Router's HeadContent
// does. Crawlers and link previews read these without running the client.

/** Site-relative URLs in canonical links and Open Graph tags become absolute, as those must be. */
const ABSOLUTE_META = new Set(['og:url', 'og:image', 'twitter:image']);
export const absolute = (value: string, origin: string) => (value.startsWith('/') ? `${origin}${value}` : value);

function element(tag: string, attributes: object): string {
  const text = Object.entries(attributes)
    .filter(([name, value]) => name !== 'children' && (typeof value === 'string' || typeof value === 'number'))
    .map(([name, value]) => ` ${name === 'charSet' ? 'charset' : name}="${escapeMarkup(String(value))}"`)
    .join('');
  return `<${tag}${text}>`;
}

export function renderHead(matches: AnyRouteMatch[], origin: string): string {
  let title: string | undefined;
  const metas = new Map<string, { content?: unknown }>();
  const links = new Map<string, { href?: unknown }>();
  const scripts: string[] = [];
  for (const match of matches) {
    for (const meta of match.meta ?? []) {
      if (!meta) continue;
      if ('title' in meta && typeof meta.title === 'string') title = meta.title;
      const key = meta.name ?? (meta as { property?: string }).property;
      if (key) metas.set(key, meta);
    }
    for (const link of match.links ?? [])
      if (link?.rel) links.set(link.rel === 'canonical' ? 'canonical' : `${link.rel} ${String(link.href)}`, link);
    for (const script of match.headScripts ?? []) {
      if (script?.type === 'application/ld+json' && typeof script.children === 'string') {
        // JSON inside a script element: "<" escaped so no value can close it.
        scripts.push(`<script type="application/ld+json">${script.children.replace(/</g, '\\u003c')}</script>`);
      }
    }
  }
  const parts: string[] = [];
  if (title !== undefined) parts.push(`<title>${escapeMarkup(title)}</title>`);
  for (const [key, meta] of metas) {
    const content = typeof meta.content === 'string' && ABSOLUTE_META.has(key) ? absolute(meta.content, origin) : meta.content;
    parts.push(element('meta', { ...meta, content }));
  }
  for (const link of links.values()) {
    parts.push(element('link', { ...link, href: typeof link.href === 'string' ? absolute(link.href, origin) : link.href }));
  }
  return [...parts, ...scripts].join('');
}
