import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { FulfilmentMode } from '../../../../shared/constants';
import { errorMessage } from '../../../errors';
import { useMutation } from '../../../mutations';
import { useTRPC } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { controlClass } from '../../ui/fields';
import { toast } from '../../ui/Toast';
import { useInvalidate } from '../parts/use-invalidate';

// Who prints and ships paid orders (README § Printing with Printful): the provider the server is
// configured with, whether drafts go to print automatically or after review, Printful's shipping
// method, and Test connection, which names the Printful store the token opens or says why not.

export const FULFILMENT_SAVED = 'Fulfilment settings saved';

export function FulfilmentCard() {
  const trpc = useTRPC();
  const saved = useQuery(trpc.admin.fulfilment.settings.queryOptions()).data;
  const [mode, setMode] = useState<FulfilmentMode | null>(null);
  const [shipping, setShipping] = useState<string | null>(null);
  const [connection, setConnection] = useState<string | null>(null);
  const invalidate = useInvalidate(trpc.admin.fulfilment.settings.queryKey());
  const save = useMutation(
    trpc.admin.fulfilment.saveSettings.mutationOptions({
      onSuccess: async () => {
        toast.success(FULFILMENT_SAVED);
        setMode(null);
        setShipping(null);
        await invalidate();
      },
      onError: (error) => toast.error(errorMessage(error, 'Could not save the fulfilment settings')),
    }),
  );
  const test = useMutation(
    trpc.admin.fulfilment.testConnection.mutationOptions({
      onSuccess: (result) => setConnection(result.ok ? `Connected to ${result.storeName}` : `Could not connect: ${result.error}`),
      onError: (error) => setConnection(`Could not connect: ${errorMessage(error, 'Printful did not answer')}`),
    }),
  );
  const printful = saved?.provider === 'printful';
  const chosenMode = mode ?? saved?.mode ?? 'review';
  const chosenShipping = shipping ?? saved?.shippingMethod ?? 'STANDARD';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ mode: chosenMode, shippingMethod: chosenShipping });
  };
  return (
    <Card
      title="Fulfilment"
      description={
        printful
          ? 'Printful prints and ships paid orders.'
          : 'The shop prints its own orders from the print queue. Set PRINTFUL_API_TOKEN and PRINTFUL_WEBHOOK_SECRET to have Printful print them.'
      }
    >
      <p className="mb-4 text-sm text-stone-800" data-testid="fulfilment-provider">
        Provider: <span className="font-semibold">{printful ? 'Printful' : 'This shop (print queue)'}</span>
      </p>
      {printful && (
        <form onSubmit={submit} className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <label className="text-sm font-medium text-stone-800">
              Send orders for printing
              <select
                className={`mt-1.5 ${controlClass()} pr-8`}
                value={chosenMode}
                onChange={(event) => setMode(event.target.value as FulfilmentMode)}
              >
                <option value="automatic">automatically</option>
                <option value="review">after I review each one</option>
              </select>
            </label>
            <label className="text-sm font-medium text-stone-800">
              Shipping method
              <input
                className={`mt-1.5 ${controlClass()}`}
                value={chosenShipping}
                onChange={(event) => setShipping(event.target.value)}
                autoComplete="off"
              />
            </label>
          </div>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <Button type="submit" busy={save.isPending} busyLabel="Saving..." className="w-full sm:w-auto">
              Save Fulfilment
            </Button>
            <Button
              type="button"
              variant="secondary"
              busy={test.isPending}
              busyLabel="Testing..."
              className="w-full sm:w-auto"
              onClick={() => test.mutate()}
            >
              Test connection
            </Button>
            {connection && (
              <p role="status" className="text-sm text-stone-700">
                {connection}
              </p>
            )}
          </div>
        </form>
      )}
    </Card>
  );
}
