import { useEffect } from 'react';
import { pageTitle } from '../../seo/page-head';

/** Sets the tab title to "{title} | {store}", or the store name alone for the home page. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
