import { createFileRoute, Link } from '@tanstack/react-router';
import { AlertTriangle, ArrowRight, ShoppingBag } from 'lucide-react';
import { useCartView } from '../cart/use-cart-view';
import { CartLineItem } from '../components/cart/CartLineItem';
import { OrderSummary } from '../components/cart/OrderSummary';
import { useDocumentTitle } from '../components/ui/use-document-title';

export const Route = createFileRoute('/cart')({
  component: CartPage,
});

const primaryButton =
  'inline-flex h-12 w-full items-center justify-center gap-2 rounded-full bg-accent-700 px-6 text-base font-semibold text-white shadow-sm transition hover:bg-accent-800';
const secondaryButton =
  'inline-flex h-12 w-full items-center justify-center rounded-full border border-stone-300 bg-white px-6 text-base font-semibold text-stone-900 transition hover:border-stone-400 hover:bg-stone-50';

function CartPage() {
  useDocumentTitle('Cart');
  const view = useCartView();

  if (view.lines.length === 0) return <EmptyCart />;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <h1 className="font-display text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">Shopping Cart</h1>
      <div className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start lg:gap-12">
        <section aria-labelledby="cart-items-heading">
          <h2 id="cart-items-heading" className="sr-only">
            Items in your cart
          </h2>
          <ul className="divide-y divide-stone-200 border-y border-stone-200">
            {view.lines.map((line) => (
              <CartLineItem key={line.key} line={line} />
            ))}
          </ul>
        </section>

        <div className="lg:sticky lg:top-24">
          <OrderSummary itemCount={view.itemCount} subtotalCents={view.subtotalCents}>
            <div className="mt-6 flex flex-col gap-3">
              {view.hasUnavailable && (
                <p className="flex items-start gap-2 text-sm font-medium text-amber-900" role="status">
                  <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  Remove the items that are no longer available to continue.
                </p>
              )}
              {view.hasUnavailable || view.itemCount === 0 ? (
                <button type="button" disabled className={`${primaryButton} cursor-not-allowed bg-stone-300 text-stone-600 hover:bg-stone-300`}>
                  Proceed to Checkout
                </button>
              ) : (
                <Link to="/checkout" className={primaryButton}>
                  Proceed to Checkout
                  <ArrowRight className="size-5" aria-hidden="true" />
                </Link>
              )}
              <Link to="/shop" className={secondaryButton}>
                Continue Shopping
              </Link>
            </div>
          </OrderSummary>
        </div>
      </div>
    </div>
  );
}

function EmptyCart() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:py-32" aria-labelledby="empty-cart-heading">
      <span className="inline-flex size-16 items-center justify-center rounded-full bg-accent-50 text-accent-700">
        <ShoppingBag className="size-8" aria-hidden="true" />
      </span>
      <h1 id="empty-cart-heading" className="font-display mt-6 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">
        Your cart is empty
      </h1>
      <p className="mt-4 text-base leading-7 text-stone-600">Add some awesome t-shirts to get started!</p>
      <Link
        to="/shop"
        className="mt-8 inline-flex h-12 items-center gap-2 rounded-full bg-accent-700 px-7 text-base font-semibold text-white shadow-sm transition hover:bg-accent-800"
      >
        Start Shopping
        <ArrowRight className="size-5" aria-hidden="true" />
      </Link>
    </section>
  );
}
