// Where sign-in and sign-up send the visitor back to (the checkout, a plan's join page): only a
// page of this store. Anything a browser could read as another site ("//host", "/\host",
// "https://host", a control character that a browser drops) is refused, and so are the store's
// API and file addresses, which are not pages.

const NOT_PAGES = /^\/(?:trpc|api|storage|webhooks|healthz|readyz|metrics)(?:[/?#]|$)/i;
const BASE = 'https://store.invalid';

/** The path itself when it is a page of this store, else undefined. */
export function storePath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 500) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\u0000-\u001f\u007f\s]/.test(value)) return undefined;
  if (NOT_PAGES.test(value)) return undefined;
  try {
    // Whatever the browser would make of it, it must stay on this origin.
    if (new URL(value, BASE).origin !== BASE) return undefined;
  } catch {
    return undefined;
  }
  return value;
}
