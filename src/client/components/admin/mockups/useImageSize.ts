import { useEffect, useState } from 'react';
import type { Size } from '../../../../shared/placement';

/** The natural pixel size of an image URL, or null until it has loaded (or when it fails). */
export function useImageSize(url: string | null | undefined): Size | null {
  const [size, setSize] = useState<{ url: string; size: Size } | null>(null);
  useEffect(() => {
    if (!url) return;
    let live = true;
    const image = new Image();
    image.onload = () => {
      if (live) setSize({ url, size: { width: image.naturalWidth, height: image.naturalHeight } });
    };
    image.src = url;
    return () => {
      live = false;
    };
  }, [url]);
  return size && size.url === url ? size.size : null;
}
