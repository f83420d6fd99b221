import { createFileRoute } from '@tanstack/react-router';
import { AlertTriangle, ArrowRight, ShoppingBag } from 'lucide-react';
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useCartRead } from '../cart/cart';
import { useCartQuote, useCartView } from '../cart/use-cart-view';
import { CartLineItem } from '../components/cart/CartLineItem';
import { OrderSummary } from '../components/cart/OrderSummary';
import { Button, ButtonLink } from '../components/ui/Button';
import { MessagePage } from '../components/MessagePage';
import { LoadingState } from '../components/ui/states';
import { useDocumentTitle } from '../components/ui/use-document-title';
import { pageHead } from '../seo/page-head';

export const Route = createFileRoute('/cart')({
  // Each shopper's own: nothing for a search engine.
  head: () => pageHead({ title: 'Cart', noIndex: true }),
  component: CartPage,
});

function CartPage() {
  useDocumentTitle('Cart');
  const view = useCartView();
  const quote = useCartQuote(view);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeadingAfterRemoval = useFocusHeadingAfterRemoval(view.lines.length, headingRef);
  const cartRead = useCartRead();

  // Rendered on the server, the cart is not known yet: not "empty" until this browser's is read.
  if (!cartRead) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
        <CartHeading />
        <LoadingState label="Loading your cart..." />
      </div>
    );
  }
  if (view.lines.length === 0) return <EmptyCart headingRef={headingRef} />;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <CartHeading headingRef={headingRef} />
      <div className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start lg:gap-12">
        <section aria-labelledby="cart-items-heading">
          <h2 id="cart-items-heading" className="sr-only">
            Items in your cart
          </h2>
          <ul className="divide-y divide-stone-200 border-y border-stone-200">
            {view.lines.map((line) => (
              <CartLineItem key={line.key} line={line} onRemove={focusHeadingAfterRemoval} />
            ))}
          </ul>
        </section>

        <div className="lg:sticky lg:top-24">
          <OrderSummary itemCount={view.itemCount} subtotalCents={view.subtotalCents} quote={quote}>
            <div className="mt-6 flex flex-col gap-3">
              {view.hasUnavailable && (
                <p className="flex items-start gap-2 text-sm font-medium text-amber-900" role="status">
                  <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  Remove the items that are no longer available to continue.
                </p>
              )}
              {view.hasUnavailable || view.itemCount === 0 ? (
                <Button variant="accent" size="xl" block disabled>
                  Proceed to Checkout
                </Button>
              ) : (
                <ButtonLink to="/checkout" variant="accent" size="xl" block>
                  Proceed to Checkout
                  <ArrowRight className="size-5" aria-hidden="true" />
                </ButtonLink>
              )}
              <ButtonLink to="/shop" variant="secondary" size="xl" block>
                Continue Shopping
              </ButtonLink>
            </div>
          </OrderSummary>
        </div>
      </div>
    </div>
  );
}

function CartHeading({ headingRef }: { headingRef?: RefObject<HTMLHeadingElement | null> }) {
  return (
    <h1
      ref={headingRef}
      tabIndex={-1}
      className="font-display text-3xl font-extrabold tracking-tight text-stone-950 focus:outline-none sm:text-4xl"
    >
      Shopping Cart
    </h1>
  );
}

/**
 * A line's Remove (or its minus at 1) takes the button away with the line, and the keyboard focus
 * would fall back to the start of the page: it goes to the page's heading instead, which a screen
 * reader reads out, without scrolling (a mouse user stays where they were). A line removed in
 * another tab moves nothing. Returns what a line calls as its own buttons remove it.
 */
function useFocusHeadingAfterRemoval(lineCount: number, headingRef: RefObject<HTMLHeadingElement | null>) {
  const previousCount = useRef(lineCount);
  const removedHere = useRef(false);
  useEffect(() => {
    const removed = lineCount < previousCount.current;
    previousCount.current = lineCount;
    if (removed && removedHere.current) headingRef.current?.focus({ preventScroll: true });
    removedHere.current = false;
  }, [lineCount, headingRef]);
  return useCallback(() => {
    removedHere.current = true;
  }, []);
}

function EmptyCart({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  return (
    <MessagePage
      headingRef={headingRef}
      icon={ShoppingBag}
      title="Your cart is empty"
      actions={
        <ButtonLink to="/shop" variant="accent" size="xl">
          Start Shopping
          <ArrowRight className="size-5" aria-hidden="true" />
        </ButtonLink>
      }
    >
      Add some awesome t-shirts to get started!
    </MessagePage>
  );
}
