import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../trpc';
import { Swatch } from '../ui/Swatch';
import { ToggleButton } from '../ui/ToggleButton';

/**
 * The shop's and a category's colour filter: "All colours" and a swatch for each colour the listed
 * products come in. A colour in the address that no product has left stays shown, so it can be cleared.
 */
export function ColourFilter({
  category,
  colour,
  onChange,
}: {
  category?: string;
  colour?: string;
  onChange: (colour: string | undefined) => void;
}) {
  const trpc = useTRPC();
  // A failed read leaves just the All colours button (docs/PRODUCT.md § Messages).
  const colours = useQuery(trpc.catalog.colours.queryOptions({ category })).data ?? [];
  if (colours.length < 2 && !colour) return null;
  return (
    <div role="group" aria-label="Filter by colour" className="flex flex-wrap gap-2">
      <ToggleButton pressed={!colour} onClick={() => onChange(undefined)}>
        All colours
      </ToggleButton>
      {colours.map((c) => (
        <ToggleButton key={c.slug} pressed={c.slug === colour} onClick={() => onChange(c.slug)}>
          {/* Outlined on the pressed button's dark fill, where a black swatch would vanish. */}
          <Swatch hex={c.hex} className={c.slug === colour ? 'size-4 outline outline-white' : 'size-4'} />
          {c.name}
        </ToggleButton>
      ))}
    </div>
  );
}
