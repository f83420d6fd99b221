/**
 * Slug of a name (docs/PRODUCT.md § Validation): lower case, every run of characters other than a-z and 0-9 turned into
 * one hyphen, no hyphen at either end. Accents are dropped first so "Café Racer" gives "cafe-racer".
 */
export function slugify(value: string): string {
  return (
    value
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      // Safe only after the step above, which leaves no two hyphens together: on a long run of them
      // this pattern takes time that grows with the square of its length (seconds at 100,000).
      .replace(/^-+|-+$/g, '')
  );
}

/** The form the database accepts (CHECK slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'). */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
