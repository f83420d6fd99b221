import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { SIZES, type SizeSurcharges } from '../../../../shared/constants';
import { SIZE_PRICING_SAVED, sizePricingInput, type SizePricingInput } from '../../../../shared/schemas/admin-settings';
import { errorMessage, showServerErrors, UNEXPECTED_ERROR } from '../../../errors';
import { useMutation } from '../../../mutations';
import { useTRPC } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { NumberField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';

// "Size pricing" (docs/adr/0029): what each size costs on top of a product's price, as print
// providers charge more for 2XL and up. All zero by default, so prices stay as they are.

const formValues = (surcharges: SizeSurcharges): SizePricingInput => ({
  surcharges: Object.fromEntries(SIZES.map((size) => [size, Number(surcharges[size] ?? 0)])),
});

export function SizePricingForm() {
  const trpc = useTRPC();
  const current = useQuery(trpc.admin.settings.sizePricing.queryOptions());
  return (
    <Card title="Size pricing" description="Added to every product's price in that size, on the product page, in carts and on orders.">
      {current.isPending ? (
        <LoadingState label="Loading size pricing..." />
      ) : current.data ? (
        <SizePricingFields surcharges={current.data} />
      ) : (
        <p className="text-sm text-red-700">{errorMessage(current.error, UNEXPECTED_ERROR)}</p>
      )}
    </Card>
  );
}

function SizePricingFields({ surcharges }: { surcharges: SizeSurcharges }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<SizePricingInput>({ resolver: zodResolver(sizePricingInput), defaultValues: formValues(surcharges) });
  const save = useMutation(
    trpc.admin.settings.saveSizePricing.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.admin.settings.sizePricing.queryKey(), saved);
        form.reset(formValues(saved));
        void queryClient.invalidateQueries({ queryKey: trpc.checkout.pathKey() });
        toast.success(SIZE_PRICING_SAVED);
      },
      onError: (error) => {
        const shown = showServerErrors(form, error);
        if (!shown.onFields) toast.error(errorMessage(error, UNEXPECTED_ERROR));
      },
    }),
  );
  return (
    <Form form={form} onSubmit={(values) => save.mutate(values)} className="grid grid-cols-2 gap-4 sm:grid-cols-4 lg:grid-cols-8">
      {SIZES.map((size) => (
        <NumberField key={size} name={`surcharges.${size}`} label={`${size} (USD)`} required />
      ))}
      <div className="col-span-full flex justify-end">
        <Button type="submit" busy={save.isPending} busyLabel="Saving..." className="w-full sm:w-auto">
          Save Size Pricing
        </Button>
      </div>
    </Form>
  );
}
