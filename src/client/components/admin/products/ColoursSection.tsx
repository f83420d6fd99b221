import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { colourCodeOf, HEX_PATTERN, SHIRT_PALETTE, variantSku } from '../../../../shared/colours';
import { SIZES, type Size } from '../../../../shared/constants';
import type { ProductFormValues } from '../../../../shared/schemas/admin-products';
import type { RouterOutputs } from '../../../trpc';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/fields';
import { Swatch } from '../../ui/Swatch';

// The product form's "Colours" (docs/adr/0029): add a colour from the palette of common shirt
// colours or by name and hex, reorder, remove; each colour's mockups as rendered; and the variant
// grid, colours by sizes, with an on/off switch per cell and the SKU it sells under.

type SavedColour = RouterOutputs['admin']['products']['byId']['colours'][number];

const iconButton =
  'inline-flex size-8 items-center justify-center rounded-lg text-stone-600 transition hover:bg-stone-100 disabled:cursor-not-allowed disabled:text-stone-300 disabled:hover:bg-transparent';

export function ColoursSection({ saved }: { saved: readonly SavedColour[] }) {
  const { control, setValue, formState } = useFormContext<ProductFormValues>();
  const { fields, append, remove, move } = useFieldArray({ control, name: 'colours' });
  const [colours, sizes, sku] = useWatch({ control, name: ['colours', 'available_sizes', 'sku_number'] });
  const offered = SIZES.filter((size) => (sizes ?? []).includes(size));
  const names = new Set((colours ?? []).map((colour) => colour.name.trim().toLowerCase()));
  const listError = formState.errors.colours?.message ?? formState.errors.colours?.root?.message;

  /** The SKU code a colour sells under: a saved colour's own, else the one it will get. */
  const codeOf = (index: number) => {
    const colour = colours?.[index];
    return saved.find((s) => s.id === colour?.id)?.code ?? colourCodeOf(colour?.name ?? '');
  };
  const toggle = (index: number, size: Size, on: boolean) => {
    const off = colours?.[index]?.off_sizes ?? [];
    setValue(`colours.${index}.off_sizes`, on ? off.filter((s) => s !== size) : [...off, size], { shouldDirty: true });
  };

  return (
    <div className="space-y-5">
      {listError && (
        <p role="alert" className="text-sm text-red-700" data-testid="colours-error">
          {listError}
        </p>
      )}
      <ol className="space-y-3">
        {fields.map((field, index) => {
          const colour = colours?.[index];
          const hex = colour && HEX_PATTERN.test(colour.hex.toLowerCase()) ? colour.hex : '#ffffff';
          const mockup = saved.find((s) => s.id === colour?.id);
          return (
            <li key={field.id} className="flex flex-wrap items-start gap-3 rounded-xl border border-stone-200 p-3" data-testid="colour-row">
              <Swatch hex={hex} className="mt-7 size-8" />
              <TextField name={`colours.${index}.name`} label="Colour name" required autoComplete="off" className="min-w-36 flex-1" />
              <TextField name={`colours.${index}.hex`} label="Hex value" required autoComplete="off" spellCheck={false} className="w-32" />
              <div className="mt-6 flex items-center">
                <button
                  type="button"
                  className={iconButton}
                  aria-label={`Move ${colour?.name || 'colour'} up`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                >
                  <ArrowUp className="size-4" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className={iconButton}
                  aria-label={`Move ${colour?.name || 'colour'} down`}
                  disabled={index === fields.length - 1}
                  onClick={() => move(index, index + 1)}
                >
                  <ArrowDown className="size-4" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className={iconButton}
                  aria-label={`Remove ${colour?.name || 'colour'}`}
                  onClick={() => remove(index)}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </div>
              {(mockup?.front_mockup_url || mockup?.back_mockup_url) && (
                <div className="flex basis-full gap-2" role="group" aria-label={`${colour?.name ?? ''} mockups`}>
                  {[mockup.front_mockup_url, mockup.back_mockup_url].flatMap((url, side) =>
                    url
                      ? [
                          <img
                            key={url}
                            src={url}
                            alt={`${colour?.name ?? ''}, ${side === 0 ? 'front' : 'back'}`}
                            className="h-20 w-16 rounded-md object-cover ring-1 ring-stone-200"
                          />,
                        ]
                      : [],
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>

      <div>
        <p className="text-sm font-medium text-stone-800">Add a colour</p>
        <div className="mt-2 flex flex-wrap gap-2">
          {SHIRT_PALETTE.filter((colour) => !names.has(colour.name.toLowerCase())).map((colour) => (
            <button
              key={colour.name}
              type="button"
              onClick={() => append({ name: colour.name, hex: colour.hex, off_sizes: [], front_blank_url: '', back_blank_url: '' })}
              className="inline-flex items-center gap-2 rounded-full border border-stone-300 px-3 py-1.5 text-sm text-stone-800 hover:border-stone-500"
            >
              <Swatch hex={colour.hex} className="size-4" />
              {colour.name}
            </button>
          ))}
          <Button
            type="button"
            variant="secondary"
            size="sm"
            icon={Plus}
            onClick={() => append({ name: '', hex: '', off_sizes: [], front_blank_url: '', back_blank_url: '' })}
          >
            Other colour
          </Button>
        </div>
      </div>

      {fields.length > 0 && offered.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" aria-label="Variants">
            <thead>
              <tr>
                <th scope="col" className="py-2 pr-3 text-left font-medium text-stone-600">
                  Colour
                </th>
                {offered.map((size) => (
                  <th key={size} scope="col" className="px-2 py-2 text-center font-medium text-stone-600">
                    {size}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {fields.map((field, index) => {
                const colour = colours?.[index];
                return (
                  <tr key={field.id} className="border-t border-stone-100">
                    <th scope="row" className="py-2 pr-3 text-left font-medium text-stone-900">
                      {colour?.name || 'New colour'}
                    </th>
                    {offered.map((size) => {
                      const on = !(colour?.off_sizes ?? []).includes(size);
                      const cellSku = variantSku(sku || 'SKU', codeOf(index), size);
                      return (
                        <td key={size} className="px-2 py-2 text-center">
                          <label className="inline-flex flex-col items-center gap-1" title={cellSku}>
                            <input
                              type="checkbox"
                              checked={on}
                              onChange={(event) => toggle(index, size, event.target.checked)}
                              aria-label={`${colour?.name || 'New colour'} in ${size}`}
                              className="size-4 accent-accent-700"
                            />
                            <span className="font-mono text-[10px] text-stone-500">{cellSku}</span>
                          </label>
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
