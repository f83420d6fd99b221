import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../errors';
import { useMutation } from '../../../mutations';
import { useTRPC } from '../../../trpc';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { controlClass } from '../../ui/fields';
import { toast } from '../../ui/Toast';
import { useInvalidate } from '../parts/use-invalidate';

// A product's Printful blank (README § Printing with Printful): linking it matches every variant
// to the blank's by colour name and size; what did not match is typed in here by its Printful
// variant number. Shown only while Printful prints the store's orders.

export function PrintfulMappingCard({ productId }: { productId: string }) {
  const trpc = useTRPC();
  const printful = useQuery(trpc.admin.fulfilment.settings.queryOptions()).data?.provider === 'printful';
  const mapping = useQuery({ ...trpc.admin.fulfilment.productMapping.queryOptions({ productId }), enabled: printful });
  const [catalogId, setCatalogId] = useState<string | null>(null);
  const [variantIds, setVariantIds] = useState<Record<string, string>>({});
  const invalidate = useInvalidate(
    trpc.admin.fulfilment.productMapping.queryKey({ productId }),
    trpc.admin.fulfilment.unmappedProducts.queryKey(),
  );
  const mapProduct = useMutation(
    trpc.admin.fulfilment.mapProduct.mutationOptions({
      onSuccess: async (result) => {
        if (result.unmatched.length > 0) toast.error(`Not mapped: ${result.unmatched.join(', ')}`);
        else toast.success(`All ${result.matched} variants mapped`);
        setCatalogId(null);
        await invalidate();
      },
      onError: (error) => toast.error(errorMessage(error, 'Could not read the Printful product')),
    }),
  );
  const mapVariant = useMutation(
    trpc.admin.fulfilment.mapVariant.mutationOptions({
      onSuccess: () => invalidate(),
      onError: (error) => toast.error(errorMessage(error, 'Could not save the Printful variant')),
    }),
  );
  if (!printful || !mapping.data) return null;
  const shownCatalogId = catalogId ?? (mapping.data.catalogProductId === null ? '' : String(mapping.data.catalogProductId));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mapProduct.mutate({ productId, catalogProductId: shownCatalogId.trim() === '' ? null : Number(shownCatalogId) });
  };
  const saveVariant = (variantId: string) => {
    const typed = variantIds[variantId];
    if (typed === undefined) return;
    mapVariant.mutate({ variantId, catalogVariantId: typed.trim() === '' ? null : Number(typed) });
  };
  return (
    <Card title="Printful" description="The Printful blank this product is printed on, and the Printful variant of each colour and size.">
      <form onSubmit={submit} className="mb-4 flex flex-col gap-2 sm:flex-row sm:items-end">
        <label className="text-sm font-medium text-stone-800">
          Printful catalog product
          <input
            className={`mt-1.5 ${controlClass()}`}
            inputMode="numeric"
            value={shownCatalogId}
            onChange={(event) => setCatalogId(event.target.value)}
            placeholder="71"
          />
        </label>
        <Button type="submit" busy={mapProduct.isPending} busyLabel="Matching...">
          Match variants
        </Button>
      </form>
      <table className="w-full text-left text-sm" data-testid="printful-variants">
        <thead className="text-xs text-stone-600">
          <tr>
            <th className="py-1">Variant</th>
            <th className="py-1">Printful variant</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {mapping.data.variants.map((variant) => (
            <tr key={variant.id}>
              <td className="py-1.5 pr-2">
                {variant.colour} / {variant.size}{' '}
                {variant.is_enabled && variant.printful_variant_id === null && <Badge tone="red">Not mapped</Badge>}
              </td>
              <td className="py-1.5">
                <input
                  aria-label={`Printful variant of ${variant.colour} / ${variant.size}`}
                  className={controlClass()}
                  inputMode="numeric"
                  value={variantIds[variant.id] ?? (variant.printful_variant_id === null ? '' : String(variant.printful_variant_id))}
                  onChange={(event) => setVariantIds({ ...variantIds, [variant.id]: event.target.value })}
                  onBlur={() => saveVariant(variant.id)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
