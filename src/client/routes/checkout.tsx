import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Navigate, redirect } from '@tanstack/react-router';
import { CreditCard, Lock } from 'lucide-react';
import { useId } from 'react';
import { emptyAddress, type Address } from '../../shared/constants';
import { formatMoney } from '../../shared/money';
import { cart } from '../cart/cart';
import type { CartViewLine } from '../cart/cart-view';
import { useCartView } from '../cart/use-cart-view';
import { ProductImage } from '../components/catalog/ProductImage';
import { OrderSummary } from '../components/cart/OrderSummary';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { prefetchQuietly } from '../prefetch';
import { useMe } from '../session/session';
import { storeConfig } from '../store-config';
import { useTRPC } from '../trpc';

// The login page sends the user back to `redirect` after signing in.
const LOGIN_SEARCH = { redirect: '/checkout' };

export const Route = createFileRoute('/checkout')({
  // An empty cart goes to /cart first: signing in would only lead there anyway (SPEC §2, §6).
  beforeLoad: async ({ context: { queryClient, trpc } }) => {
    if (cart.getLines().length === 0) throw redirect({ to: '/cart', replace: true });
    const me = await queryClient.fetchQuery({ ...trpc.auth.me.queryOptions(), staleTime: 60_000 }).catch(() => null);
    if (!me) throw redirect({ to: '/login', search: LOGIN_SEARCH, replace: true });
  },
  loader: ({ context: { queryClient, trpc } }) => prefetchQuietly(queryClient, trpc.account.profile.queryOptions()),
  component: CheckoutPage,
});

function CheckoutPage() {
  useDocumentTitle('Checkout');
  const me = useMe();
  const view = useCartView();

  // Signed out or emptied in another tab while this page is open.
  if (me.data === null) return <Navigate to="/login" search={LOGIN_SEARCH} replace />;
  if (view.lines.length === 0) return <Navigate to="/cart" replace />;
  // Lines that can no longer be bought are dealt with on the cart page.
  if (!view.isChecking && (view.hasUnavailable || view.itemCount === 0)) return <Navigate to="/cart" replace />;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <h1 className="font-display text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">Checkout</h1>

      <div role="note" className="mt-6 flex gap-4 rounded-2xl bg-amber-50 p-5 ring-1 ring-amber-200" data-testid="payment-banner">
        <CreditCard className="size-6 shrink-0 text-amber-700" aria-hidden="true" />
        <div>
          <p className="font-semibold text-amber-950">Payment integration required</p>
          <p className="mt-1 text-sm leading-6 text-amber-900">
            Online payment is not connected to this store yet, so orders cannot be completed here. Your cart is saved; questions are welcome at{' '}
            <a href={`mailto:${storeConfig.storeEmail}`} className="font-semibold underline underline-offset-2">
              {storeConfig.storeEmail}
            </a>
            .
          </p>
        </div>
      </div>

      <div className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start lg:gap-12">
        <ShippingForm email={me.data?.email ?? ''} />
        <div className="lg:sticky lg:top-24">
          <OrderSummary
            itemCount={view.itemCount}
            subtotalCents={view.subtotalCents}
            items={
              <ul className="mt-6 divide-y divide-stone-200 border-b border-stone-200" data-testid="checkout-lines">
                {view.lines.map((line) => (
                  <SummaryLine key={line.key} line={line} />
                ))}
              </ul>
            }
          >
            <button
              type="button"
              disabled
              className="mt-6 inline-flex h-12 w-full cursor-not-allowed items-center justify-center gap-2 rounded-full bg-stone-300 px-6 text-base font-semibold text-stone-600"
            >
              <Lock className="size-4" aria-hidden="true" />
              Complete Order
            </button>
            <p className="mt-3 text-center text-xs text-stone-500">Orders can be completed once payment is connected.</p>
          </OrderSummary>
        </div>
      </div>
    </div>
  );
}

function SummaryLine({ line }: { line: CartViewLine }) {
  return (
    <li className="flex items-center gap-3 py-3">
      <div className="relative aspect-[4/5] w-12 shrink-0 overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-900/5">
        <ProductImage src={line.imageUrl} alt="" width={96} height={120} className="absolute inset-0 size-full object-cover" />
      </div>
      <div className="min-w-0 flex-1 text-sm">
        <p className="truncate font-medium text-stone-900">{line.name}</p>
        <p className="text-stone-600">
          Size {line.size} × {line.quantity}
        </p>
      </div>
      <p className="text-sm font-medium text-stone-900">{formatMoney(line.totalCents / 100)}</p>
    </li>
  );
}

function ShippingForm({ email }: { email: string }) {
  const trpc = useTRPC();
  const profile = useQuery(trpc.account.profile.queryOptions());
  if (profile.isPending) {
    return <div aria-hidden="true" className="h-[28rem] animate-pulse rounded-2xl bg-stone-100" />;
  }
  // A failed read leaves the form blank (SPEC §8).
  const customer = profile.data ?? null;
  return (
    <ShippingFields
      defaults={{
        firstName: customer?.first_name ?? '',
        lastName: customer?.last_name ?? '',
        email: customer?.email ?? email,
        phone: customer?.phone ?? '',
        address: customer?.shipping_address ?? emptyAddress(),
      }}
    />
  );
}

interface ShippingDefaults {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: Address;
}

const inputClass =
  'mt-2 block h-11 w-full rounded-xl border border-stone-300 bg-white px-3.5 text-base text-stone-900 shadow-sm transition hover:border-stone-400';

function Field({ label, name, defaultValue, autoComplete, type = 'text', className = '' }: { label: string; name: string; defaultValue: string; autoComplete: string; type?: string; className?: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-stone-900">
        {label}
      </label>
      <input id={id} name={name} type={type} defaultValue={defaultValue} autoComplete={autoComplete} className={inputClass} />
    </div>
  );
}

/** The placeholder's shipping form (SPEC §2): prefilled from the saved account, not submitted anywhere. */
function ShippingFields({ defaults }: { defaults: ShippingDefaults }) {
  const { address } = defaults;
  return (
    <form
      aria-labelledby="shipping-heading"
      className="rounded-2xl bg-white p-6 ring-1 ring-stone-200 sm:p-8"
      onSubmit={(event) => event.preventDefault()}
      data-testid="shipping-form"
    >
      <h2 id="shipping-heading" className="font-display text-xl font-bold text-stone-950">
        Shipping Information
      </h2>
      <div className="mt-6 grid grid-cols-1 gap-5 sm:grid-cols-6">
        <Field label="First name" name="first_name" defaultValue={defaults.firstName} autoComplete="shipping given-name" className="sm:col-span-3" />
        <Field label="Last name" name="last_name" defaultValue={defaults.lastName} autoComplete="shipping family-name" className="sm:col-span-3" />
        <Field label="Email" name="email" type="email" defaultValue={defaults.email} autoComplete="email" className="sm:col-span-3" />
        <Field label="Phone" name="phone" type="tel" defaultValue={defaults.phone} autoComplete="shipping tel" className="sm:col-span-3" />
        <Field label="Street address" name="street" defaultValue={address.street} autoComplete="shipping street-address" className="sm:col-span-6" />
        <Field label="City" name="city" defaultValue={address.city} autoComplete="shipping address-level2" className="sm:col-span-2" />
        <Field label="State" name="state" defaultValue={address.state} autoComplete="shipping address-level1" className="sm:col-span-2" />
        <Field label="ZIP code" name="zip" defaultValue={address.zip} autoComplete="shipping postal-code" className="sm:col-span-2" />
        <Field label="Country" name="country" defaultValue={address.country} autoComplete="shipping country-name" className="sm:col-span-6" />
      </div>
    </form>
  );
}
