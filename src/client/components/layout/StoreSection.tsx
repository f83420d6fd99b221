import type { ReactNode } from 'react';

/** The storefront's page column: full width up to 7xl, with its side and section padding. */
const COLUMN_CLASS = 'mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8';

/**
 * A section of a storefront page (home, club) in the page column, named by its heading's id;
 * `band` shades it edge to edge, between borders, to set it apart from its neighbours.
 */
export function StoreSection({ labelledBy, band = false, children }: { labelledBy: string; band?: boolean; children: ReactNode }) {
  if (!band) {
    return (
      <section aria-labelledby={labelledBy} className={COLUMN_CLASS}>
        {children}
      </section>
    );
  }
  return (
    <section aria-labelledby={labelledBy} className="border-y border-stone-200 bg-stone-50">
      <div className={COLUMN_CLASS}>{children}</div>
    </section>
  );
}
