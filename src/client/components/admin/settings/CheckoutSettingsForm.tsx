import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation } from '../../../mutations';
import { checkoutSettingsInput, type CheckoutSettingsInput } from '../../../../shared/schemas/admin-settings';
import { dataOf } from '../../../error-data';
import { errorMessage, showServerErrors, UNEXPECTED_ERROR } from '../../../errors';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Checkbox, NumberField, TextArea, TextField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';

// What checkout charges and says (docs/PRODUCT.md § Screens, Admin settings): a flat shipping rate with an optional
// free-shipping threshold, a tax rate, the payment instructions of manual payment and the
// carrier's tracking link. The defaults (free shipping, no tax) keep the total equal to the subtotal.

type CheckoutSettings = RouterOutputs['admin']['settings']['checkout'];

export const CHECKOUT_SETTINGS_SAVED = 'Checkout settings saved';

const PROVIDER_NOTES = {
  manual: 'Payments: manual. Orders wait for payment until you mark them paid in Orders.',
  stripe: 'Payments: Stripe. Buyers pay by card on Stripe Checkout; orders are marked paid when Stripe confirms.',
} as const;

export function CheckoutSettingsForm() {
  const trpc = useTRPC();
  const current = useQuery(trpc.admin.settings.checkout.queryOptions());
  return (
    <Card title="Checkout" description="Shipping, tax and what buyers are told about paying and tracking.">
      {current.isPending ? (
        <LoadingState label="Loading checkout settings..." />
      ) : current.data ? (
        <CheckoutFields settings={current.data} />
      ) : (
        <p className="text-sm text-red-700">{errorMessage(current.error, UNEXPECTED_ERROR)}</p>
      )}
    </Card>
  );
}

const formValues = (settings: CheckoutSettings): CheckoutSettingsInput => ({
  flat_shipping_rate: Number(settings.flat_shipping_rate),
  free_shipping_threshold: settings.free_shipping_threshold === null ? null : Number(settings.free_shipping_threshold),
  tax_rate_percent: Number(settings.tax_rate_percent),
  payment_instructions: settings.payment_instructions,
  tracking_url_template: settings.tracking_url_template,
  guest_checkout: settings.guest_checkout,
});

function CheckoutFields({ settings }: { settings: CheckoutSettings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<CheckoutSettingsInput>({ resolver: zodResolver(checkoutSettingsInput), defaultValues: formValues(settings) });
  // The stamp of the values the form shows (a refetch in the background does not move it): saving over a change made since is refused.
  const [loadedAt, setLoadedAt] = useState(settings.updated_at);
  /** Shows the settings as they are now, so the next save starts from them. */
  const showCurrent = async () => {
    const current = await queryClient.fetchQuery({ ...trpc.admin.settings.checkout.queryOptions(), staleTime: 0 });
    setLoadedAt(current.updated_at);
    form.reset(formValues(current));
  };
  const save = useMutation(
    trpc.admin.settings.saveCheckout.mutationOptions({
      onSuccess: (saved) => {
        setLoadedAt(saved.updated_at);
        queryClient.setQueryData(trpc.admin.settings.checkout.queryKey(), saved);
        // The storefront's shipping promise and any open cart follow the new settings.
        void queryClient.invalidateQueries({ queryKey: trpc.checkout.pathKey() });
        toast.success(CHECKOUT_SETTINGS_SAVED);
      },
      onError: (error) => {
        const shown = showServerErrors(form, error);
        if (!shown.onFields) toast.error(errorMessage(error, UNEXPECTED_ERROR));
        // Refused as changed elsewhere: the admin sees the change, and saves again from it.
        if (dataOf(error)?.code === 'CONFLICT') void showCurrent().catch(() => undefined);
      },
    }),
  );

  return (
    <Form form={form} onSubmit={(values) => save.mutate({ ...values, updatedAt: loadedAt })} className="grid gap-4 md:grid-cols-3">
      <NumberField name="flat_shipping_rate" label="Shipping rate (USD)" required hint="Per order. 0 means free shipping." />
      <NumberField
        name="free_shipping_threshold"
        label="Free shipping from (USD)"
        optional
        hint="Subtotal that ships free. Empty: never."
      />
      <NumberField name="tax_rate_percent" label="Tax rate (%)" required max={100} hint="Of the items' subtotal." />
      <TextArea
        name="payment_instructions"
        label="Payment instructions"
        rows={4}
        className="md:col-span-3"
        hint="Shown at checkout, on the order page and in the confirmation email when payments are manual, e.g. bank transfer details."
      />
      <TextField
        name="tracking_url_template"
        label="Tracking link"
        required
        type="url"
        autoComplete="off"
        className="md:col-span-3"
        hint="The carrier's tracking page; {number} is replaced by the order's tracking number."
      />
      <Checkbox
        name="guest_checkout"
        label="Customers can check out without an account"
        hint="Buyers give an email address at checkout; an account stays optional."
        className="md:col-span-3"
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between md:col-span-3">
        <p className="text-sm text-stone-600" data-testid="payment-provider">
          {PROVIDER_NOTES[settings.paymentProvider]}
        </p>
        <Button type="submit" busy={save.isPending} busyLabel="Saving..." className="w-full sm:w-auto">
          Save Checkout Settings
        </Button>
      </div>
    </Form>
  );
}
