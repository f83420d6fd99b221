import { useState } from 'react';
import { slugify } from '../../../../shared/slug';

type ChangeEvent = { target: { value: string } };

/**
 * A slug that follows the name (docs/PRODUCT.md § Validation: generated from the name) until the admin types their
 * own; clearing it hands it back to the name. Returns register() options for the two fields.
 */
export function useSlugFromName(setSlug: (slug: string) => void, { ownSlug }: { ownSlug: boolean }) {
  const [slugByHand, setSlugByHand] = useState(ownSlug);
  return {
    slugByHand,
    nameOptions: {
      onChange: (event: ChangeEvent) => {
        if (!slugByHand) setSlug(slugify(event.target.value));
      },
    },
    slugOptions: { onChange: (event: ChangeEvent) => setSlugByHand(event.target.value.trim() !== '') },
  };
}
