import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Gift, SearchX } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useMutation } from '../../mutations';
import { COLOUR_CHOICE_LABELS, COLOUR_CHOICES, SIZES } from '../../../shared/constants';
import { shippingInput } from '../../../shared/schemas/checkout';
import { CHOOSE_A_CATEGORY, CHOOSE_COLOURS, tooManyCategories } from '../../../shared/schemas/subscriptions';
import { errorMessage, showServerErrors, UNEXPECTED_ERROR } from '../../errors';
import { useTRPC, type RouterOutputs } from '../../trpc';
import { AddressFields } from '../account/AddressFields';
import { shippingDefaults } from '../account/shipping-defaults';
import { CategoryChoices } from './CategoryChoices';
import { formatPlanPrice, planIntervalLabel } from '../info/plan-format';
import { MissingPage } from '../MissingPage';
import { BackLink } from '../ui/BackLink';
import { Card } from '../ui/Card';
import { Select, TextField } from '../ui/fields';
import { Form, FormMessage, SubmitButton } from '../ui/Form';
import { LoadingState } from '../ui/states';
import { useDocumentTitle } from '../ui/use-document-title';

// Joining the club: shirt size and colours, the categories the plan lets the member choose, and
// where to ship; Start subscription makes the membership and its first shipment's order.

const route = getRouteApi('/_account/subscriptions/join/$planSlug');

type JoinOptions = RouterOutputs['subscriptions']['joinOptions'];
const joinForm = z.object({
  size: z.enum(SIZES, { error: 'Choose a shirt size' }),
  colourChoice: z.enum(COLOUR_CHOICES, { error: CHOOSE_COLOURS }),
  shipping: shippingInput,
});
type JoinFormInput = z.input<typeof joinForm>;
type JoinFormOutput = z.output<typeof joinForm>;

export function JoinPage() {
  const { planSlug } = route.useParams();
  const trpc = useTRPC();
  const options = useQuery(trpc.subscriptions.joinOptions.queryOptions({ slug: planSlug }, { retry: false }));
  const profile = useQuery(trpc.account.profile.queryOptions());
  useDocumentTitle(options.data ? `Join ${options.data.plan.name}` : 'Join the club');

  if (options.isPending || profile.isPending) return <LoadingState label="Loading the plan..." />;
  if (!options.data) {
    return (
      <MissingPage icon={SearchX} title="Plan Not Available" link={{ to: '/subscriptions', label: 'See the plans' }}>
        This plan is not open for new members.
      </MissingPage>
    );
  }
  return (
    <JoinForm
      options={options.data}
      defaults={{
        size: 'L',
        colourChoice: 'any',
        shipping: shippingDefaults(profile.data),
      }}
    />
  );
}

function JoinForm({ options, defaults }: { options: JoinOptions; defaults: JoinFormInput }) {
  const { plan, categories, paymentProvider } = options;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const categoriesId = useId();
  const [chosen, setChosen] = useState<string[]>([]);
  const [categoryError, setCategoryError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<JoinFormInput, unknown, JoinFormOutput>({ resolver: zodResolver(joinForm), defaultValues: defaults });
  const limit = plan.category_limit;

  const join = useMutation(
    trpc.subscriptions.join.mutationOptions({
      onSuccess: async ({ redirectUrl }) => {
        // By card: on to Stripe Checkout; the membership starts when the payment is there.
        if (redirectUrl) return window.location.assign(redirectUrl);
        await queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
        await navigate({ to: '/subscription' });
      },
      onError: (error) => {
        const shown = showServerErrors(form, error);
        const onCategories = error.data?.fieldErrors?.categoryIds?.[0];
        if (onCategories) setCategoryError(onCategories);
        setFailure(shown.onFields || onCategories ? null : errorMessage(error, UNEXPECTED_ERROR));
        // The plan changed meanwhile: show it as it is now.
        void queryClient.invalidateQueries({ queryKey: trpc.subscriptions.joinOptions.pathKey() });
      },
    }),
  );

  const submit = (values: JoinFormOutput) => {
    setFailure(null);
    if (limit > 0 && chosen.length === 0) {
      setCategoryError(CHOOSE_A_CATEGORY);
      return;
    }
    setCategoryError(null);
    join.mutate({
      planSlug: plan.slug,
      size: values.size,
      colourChoice: values.colourChoice,
      categoryIds: chosen,
      shipping: values.shipping,
      expectedTerms: { price: plan.price, billingInterval: plan.billing_interval },
    });
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <BackLink to="/subscriptions">Subscription Club</BackLink>
      <h1 className="font-display mt-4 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">Join {plan.name}</h1>
      <p className="mt-2 flex items-center gap-2 text-stone-600">
        <Gift className="size-5 text-accent-700" aria-hidden="true" />
        <span>
          <strong className="text-stone-900">{formatPlanPrice(plan.price)}</strong> / {planIntervalLabel(plan.billing_interval)}, shipping
          included. Skip, pause or cancel any time.
        </span>
      </p>

      <Form form={form} onSubmit={submit} className="mt-8 space-y-8">
        <Card spacious title="Your shirts">
          <div className="space-y-6">
            <Select name="size" label="Shirt size" required className="max-w-xs">
              {SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </Select>
            <Select name="colourChoice" label="Shirt colours" required className="max-w-xs">
              {COLOUR_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {COLOUR_CHOICE_LABELS[choice]}
                </option>
              ))}
            </Select>
            {limit === 0 ? (
              <p className="text-sm text-stone-600">Your plan includes every category: we pick from the whole shop.</p>
            ) : (
              <div>
                <CategoryChoices
                  categories={categories}
                  chosen={chosen}
                  limit={limit}
                  onChange={(next) => {
                    setCategoryError(null);
                    setChosen(next);
                  }}
                  legend={
                    <>
                      Categories <span className="text-red-700">*</span>
                    </>
                  }
                  describedBy={categoryError ? `${categoriesId}-error` : `${categoriesId}-hint`}
                >
                  <p id={`${categoriesId}-hint`} className="mt-1 text-xs text-stone-500">
                    {tooManyCategories(limit).replace('Choose at most', 'Choose up to')}.
                  </p>
                </CategoryChoices>
                {categoryError && (
                  <p id={`${categoriesId}-error`} className="mt-2 text-sm text-red-700">
                    {categoryError}
                  </p>
                )}
              </div>
            )}
          </div>
        </Card>

        <Card spacious title="Shipping Information">
          <div className="space-y-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField name="shipping.first_name" label="First name" autoComplete="shipping given-name" required />
              <TextField name="shipping.last_name" label="Last name" autoComplete="shipping family-name" required />
              <TextField name="shipping.phone" label="Phone" type="tel" autoComplete="shipping tel" />
            </div>
            <AddressFields prefix="shipping" section="shipping" label="Shipping address" />
          </div>
        </Card>

        <Card spacious title="Payment">
          <p className="text-sm leading-6 text-stone-700">
            {paymentProvider === 'stripe'
              ? 'You pay by card on the next page; your card is then charged at the start of every cycle, and your first shirt goes to print once the first payment is in.'
              : "Your first shirt's order is made as soon as you start. Pay each shipment's order as its order page and email explain; we print once the payment arrives."}
          </p>
        </Card>

        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <SubmitButton busy={join.isPending} busyLabel="Starting..." size="xl" variant="accent" className="w-full sm:w-auto">
          Start subscription
        </SubmitButton>
      </Form>
    </div>
  );
}
