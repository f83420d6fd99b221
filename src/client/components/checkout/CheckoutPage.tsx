import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { AlertTriangle, CreditCard, Landmark, Lock } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useMutation } from '../../mutations';
import { formatMoney } from '../../../shared/money';
import { guestEmailField, shippingInput } from '../../../shared/schemas/checkout';
import { cart, checkoutKeys } from '../../cart/cart';
import { guestOrders } from '../../cart/guest-orders';
import { orderLinesOf, type CartViewLine } from '../../cart/cart-view';
import { useCartQuote, type CartAmounts, type CartQuote, type CartViewState } from '../../cart/use-cart-view';
import { errorMessage, showServerErrors, UNEXPECTED_ERROR } from '../../errors';
import { dataOf } from '../../error-data';
import { useTRPC } from '../../trpc';
import { AddressFields } from '../account/AddressFields';
import { shippingDefaults } from '../account/shipping-defaults';
import { OrderSummary } from '../cart/OrderSummary';
import { ProductImage } from '../catalog/ProductImage';
import { Button, textLinkClass } from '../ui/Button';
import { Card } from '../ui/Card';
import { Checkbox, TextField } from '../ui/fields';
import { Form, FormMessage } from '../ui/Form';
import { DiscountField } from './DiscountField';
import { useDocumentTitle } from '../ui/use-document-title';

// Checkout (docs/PRODUCT.md § Screens, Checkout): the shipping address (prefilled from the account), the order
// priced by the server, and Complete Order. Lines that changed since they were added (a product
// withdrawn, a size dropped, a new price) are shown with what changed, and the cart must be
// updated before the order can be placed.

// A guest gives the address the order's emails go to; a customer's account has it.
const checkoutForm = z.object({ email: guestEmailField.optional(), shipping: shippingInput, saveToAccount: z.boolean() });
const guestCheckoutForm = checkoutForm.extend({ email: guestEmailField });
type CheckoutFormInput = z.input<typeof checkoutForm>;
type CheckoutFormOutput = z.output<typeof checkoutForm>;

const lineProblem = (line: CartViewLine): string | null =>
  line.status === 'product-unavailable'
    ? 'No longer available'
    : line.status === 'colour-unavailable'
      ? `${line.colourName ?? 'This colour'} is no longer available`
      : line.status === 'size-unavailable'
        ? `Size ${line.size} is no longer available${line.colourName ? ` in ${line.colourName}` : ''}`
        : line.previousPrice
          ? `Price changed from ${formatMoney(line.previousPrice)} to ${formatMoney(line.price)}`
          : null;

/** `account`: the signed-in customer, or null for a guest. */
export function CheckoutPage({ account, view }: { account: { email: string } | null; view: CartViewState }) {
  useDocumentTitle('Checkout');
  const trpc = useTRPC();
  // The saved address fills the form, once: "Address once".
  const profile = useQuery({ ...trpc.account.profile.queryOptions(), enabled: account !== null });
  // The discount code the shopper applied; the quote prices the cart with it or says why not.
  const [discountCode, setDiscountCode] = useState<string | null>(null);
  const quote = useCartQuote(view, discountCode);
  const changed = view.lines.filter((line) => lineProblem(line) !== null);

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <h1 className="font-display text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">Checkout</h1>
      {account && profile.isPending ? (
        <div aria-hidden="true" className="mt-8 h-[32rem] animate-pulse rounded-2xl bg-stone-100" />
      ) : (
        <CheckoutForm
          account={account}
          view={view}
          quote={quote}
          changed={changed}
          discount={{ code: discountCode, apply: setDiscountCode }}
          defaults={{
            ...(account ? {} : { email: '' }),
            shipping: shippingDefaults(profile.data),
            saveToAccount: false,
          }}
        />
      )}
    </div>
  );
}

interface CheckoutFormProps {
  account: { email: string } | null;
  view: CartViewState;
  quote: CartQuote;
  changed: CartViewLine[];
  /** The code applied (null: none), and applying another or none. */
  discount: { code: string | null; apply: (code: string | null) => void };
  defaults: CheckoutFormInput;
}

function CheckoutForm({ account, view, quote, changed, discount, defaults }: CheckoutFormProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const formId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  // A code refused when the order was placed (its last use went meanwhile, say); the quote's own refusal otherwise.
  const [placeRefusal, setPlaceRefusal] = useState<string | null>(null);
  const applyDiscount = (code: string | null) => {
    setPlaceRefusal(null);
    discount.apply(code);
  };
  const form = useForm<CheckoutFormInput, unknown, CheckoutFormOutput>({
    resolver: zodResolver(account ? checkoutForm : guestCheckoutForm),
    defaultValues: defaults,
  });

  const place = useMutation(
    trpc.checkout.placeOrder.mutationOptions({
      onSuccess: async ({ orderId, orderNumber, redirectUrl, accessKey }) => {
        // Every open tab's cart empties with this one (the storage event).
        cart.clear();
        checkoutKeys.forget();
        await queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() });
        // Back from paying by card, this tab opens a guest's order with its key.
        if (accessKey) guestOrders.remember(orderId, { orderNumber, accessKey });
        if (redirectUrl) window.location.assign(redirectUrl);
        else
          await navigate({
            to: '/orders/$orderNumber',
            params: { orderNumber },
            search: { placed: true, ...(accessKey ? { key: accessKey } : {}) },
          });
      },
      onError: (error) => {
        const shown = showServerErrors(form, error);
        const codeRefusal = dataOf(error)?.fieldErrors?.discountCode?.[0] ?? null;
        setPlaceRefusal(codeRefusal);
        setFailure(shown.onFields || codeRefusal ? null : errorMessage(error, UNEXPECTED_ERROR));
        // A product or price changed meanwhile: show the cart as it is now.
        void queryClient.invalidateQueries({ queryKey: trpc.catalog.cartProducts.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.checkout.quote.pathKey() });
      },
    }),
  );

  const submit = (values: CheckoutFormOutput) => {
    setFailure(null);
    const lines = orderLinesOf(view.lines);
    place.mutate({
      // The same cart sent again (a second click, a retry, another tab) is the same order.
      idempotencyKey: checkoutKeys.keyFor(lines),
      ...(account ? {} : { email: values.email }),
      lines,
      shipping: values.shipping,
      saveToAccount: values.saveToAccount,
      expectedTotal: quote.amounts?.total,
      // Only a code the quote applied: a refused one is not sent again.
      discountCode: quote.amounts?.discountCode ?? undefined,
    });
  };
  // Takes today's products into the cart: withdrawn lines go, new prices are accepted.
  const updateCart = () =>
    cart.replace(
      view.lines
        .filter((line) => line.status === 'available')
        .map((line) => ({
          product: { id: line.productId, slug: line.slug, name: line.name, image_url: line.imageUrl, image: line.image, price: line.price },
          colour:
            line.colourId && line.colourName && line.colourHex ? { id: line.colourId, name: line.colourName, hex: line.colourHex } : null,
          size: line.size,
          quantity: line.quantity,
        })),
    );
  // The buyer sees the total before placing the order, and the order is placed for that total.
  const blocked = changed.length > 0 || view.isChecking || quote.pricing || !quote.amounts || view.itemCount === 0;
  // The summary lists each line with what changed since it was added.
  const summaryLines = (
    <ul className="mt-6 divide-y divide-stone-200 border-b border-stone-200" data-testid="checkout-lines">
      {view.lines.map((line) => (
        <SummaryLine key={line.key} line={line} problem={lineProblem(line)} />
      ))}
    </ul>
  );

  return (
    <div className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start lg:gap-12">
      <div className="space-y-8">
        <Card
          spacious
          title="Shipping Information"
          description={account ? `We'll send the order confirmation to ${account.email}.` : undefined}
          actions={
            account ? undefined : (
              <p className="text-sm text-stone-600">
                Have an account?{' '}
                <Link to="/login" search={{ redirect: '/checkout' }} className={textLinkClass}>
                  Sign in
                </Link>
              </p>
            )
          }
        >
          <Form form={form} id={formId} onSubmit={submit} className="space-y-5" data-testid="shipping-form">
            {!account && (
              <TextField
                name="email"
                label="Email"
                type="email"
                autoComplete="email"
                required
                hint="For your order confirmation and the link to your order. No account needed."
              />
            )}
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField name="shipping.first_name" label="First name" autoComplete="shipping given-name" required />
              <TextField name="shipping.last_name" label="Last name" autoComplete="shipping family-name" required />
              <TextField
                name="shipping.phone"
                label="Phone"
                type="tel"
                autoComplete="shipping tel"
                hint="For the courier, if they need to reach you."
              />
            </div>
            <AddressFields prefix="shipping" section="shipping" label="Shipping address" />
            {account && <Checkbox name="saveToAccount" label="Save to my account" hint="Use this address next time too." />}
          </Form>
        </Card>
        <PaymentCard payment={quote.amounts?.payment} />
      </div>

      <div className="lg:sticky lg:top-24">
        <OrderSummary
          itemCount={view.itemCount}
          subtotalCents={view.subtotalCents}
          quote={quote}
          items={
            <>
              {summaryLines}
              <DiscountField
                refusal={placeRefusal ?? (discount.code ? (quote.amounts?.discountError ?? null) : null)}
                applying={discount.code !== null && quote.pricing}
                onApply={applyDiscount}
              />
            </>
          }
          onRemoveDiscount={() => applyDiscount(null)}
        >
          <div className="mt-6 space-y-3">
            {changed.length > 0 && (
              <div className="space-y-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-200" role="status">
                <p className="flex items-start gap-2 font-medium">
                  <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  Some items changed since you added them. Update your cart to continue.
                </p>
                <Button variant="secondary" block onClick={updateCart}>
                  Update Cart
                </Button>
              </div>
            )}
            {failure && <FormMessage kind="error">{failure}</FormMessage>}
            <Button
              type="submit"
              form={formId}
              variant="accent"
              size="xl"
              block
              icon={Lock}
              busy={place.isPending}
              busyLabel="Placing order..."
              disabled={blocked}
            >
              Complete Order
            </Button>
          </div>
        </OrderSummary>
      </div>
    </div>
  );
}

function PaymentCard({ payment }: { payment: CartAmounts['payment'] | undefined }) {
  if (!payment) return null;
  const { provider, instructions } = payment;
  return (
    <Card spacious title="Payment">
      {provider === 'stripe' ? (
        <p className="flex items-start gap-3 text-sm leading-6 text-stone-700">
          <CreditCard className="mt-0.5 size-5 shrink-0 text-accent-700" aria-hidden="true" />
          Pay securely by card on the next step. Your order is confirmed as soon as the payment goes through.
        </p>
      ) : (
        <div className="flex items-start gap-3 text-sm leading-6 text-stone-700" data-testid="payment-instructions">
          <Landmark className="mt-0.5 size-5 shrink-0 text-accent-700" aria-hidden="true" />
          <div>
            <p>
              {/* A store that has not written its instructions yet: the buyer can still ask. */}
              {instructions
                ? 'Pay as described below. We print your order once the payment arrives; these instructions are in your confirmation email too.'
                : 'We print your order once the payment arrives. Reply to your confirmation email to ask how to pay.'}
            </p>
            {instructions && (
              <p className="mt-3 rounded-lg bg-stone-50 p-3 font-medium whitespace-pre-line text-stone-900">{instructions}</p>
            )}
          </div>
        </div>
      )}
    </Card>
  );
}

function SummaryLine({ line, problem }: { line: CartViewLine; problem: string | null }) {
  const unavailable = line.status !== 'available';
  return (
    <li className="flex items-center gap-3 py-3" data-testid="checkout-line">
      <div
        className={`relative aspect-[4/5] w-12 shrink-0 overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-900/5 ${unavailable ? 'opacity-50 grayscale' : ''}`}
      >
        <ProductImage image={line.image} alt="" sizes="48px" className="absolute inset-0 size-full object-cover" />
      </div>
      <div className="min-w-0 flex-1 text-sm">
        <p className="truncate font-medium text-stone-900">{line.name}</p>
        <p className="text-stone-600">
          {line.colourName ? `${line.colourName}, size` : 'Size'} {line.size} × {line.quantity}
        </p>
        {problem && (
          <p className="mt-0.5 text-xs font-medium text-amber-800" data-testid="line-problem">
            {problem}
          </p>
        )}
      </div>
      <p className="text-sm font-medium text-stone-900">{unavailable ? '—' : formatMoney(line.totalCents / 100)}</p>
    </li>
  );
}
