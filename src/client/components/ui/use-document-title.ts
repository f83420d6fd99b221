import { useEffect } from 'react';
import { storeConfig } from '../../store-config';

/** Sets the tab title to "{title} | {store}", or the store name alone for the home page. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} | ${storeConfig.storeName}` : storeConfig.storeName;
  }, [title]);
}
