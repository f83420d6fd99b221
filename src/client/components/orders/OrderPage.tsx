import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { CircleCheck, CreditCard, ExternalLink, Landmark, LoaderCircle, PackageX, Truck } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatDate, formatDateTime } from '../../../shared/dates';
import { formatMoney, toCents } from '../../../shared/money';
import { discountLine } from '../../../shared/schemas/discounts';
import { useTRPC, type RouterOutputs } from '../../trpc';
import type { PaymentReturn } from '../../../shared/constants';
import { AccountLayout } from '../account/AccountLayout';
import { ProductImage } from '../catalog/ProductImage';
import { CreateAccountCard } from './CreateAccountCard';
import { MissingPage } from '../MissingPage';
import { OrderBadges } from './OrderBadges';
import { ORDER_EVENT_LABELS } from './order-events';
import { buttonClass } from '../ui/Button';
import { Card } from '../ui/Card';
import { LoadingState } from '../ui/states';
import { useDocumentTitle } from '../ui/use-document-title';
import { BackLink } from '../ui/BackLink';
import { Swatch } from '../ui/Swatch';

const route = getRouteApi('/orders/$orderNumber');

type Order = RouterOutputs['orders']['get'];

/** How often the page looks again while a card payment is being confirmed. */
const PAYMENT_POLL_MS = 2000;

// Back from paying by card, the webhook marks the order paid in a moment: look until it has.
const pollWhilePaying = (payment: PaymentReturn | undefined) => (query: { state: { data?: { payment_status: string } | undefined } }) =>
  payment === 'done' && query.state.data?.payment_status === 'pending' ? PAYMENT_POLL_MS : false;

/** A guest order opened by its key, or one of the signed-in customer's (inside the account's guard). */
export function OrderRoute() {
  const { key } = route.useSearch();
  if (key) return <GuestOrderPage accessKey={key} />;
  return (
    <AccountLayout>
      <OrderPage />
    </AccountLayout>
  );
}

function OrderPage() {
  const { orderNumber } = route.useParams();
  const { placed, payment } = route.useSearch();
  const trpc = useTRPC();
  const order = useQuery(trpc.orders.get.queryOptions({ orderNumber }, { retry: false, refetchInterval: pollWhilePaying(payment) }));
  useDocumentTitle(`Order ${orderNumber}`);

  if (order.isPending) return <LoadingState label="Loading your order..." />;
  if (!order.data) {
    return <OrderNotFound>There is no order {orderNumber} on your account.</OrderNotFound>;
  }
  return <OrderDetail order={order.data} thanks={placed === true || payment === 'done'} payment={payment} />;
}

/** The order itself and nothing else: no account, no other orders (docs/adr/0027-guest-checkout.md). */
function GuestOrderPage({ accessKey }: { accessKey: string }) {
  const { orderNumber } = route.useParams();
  const { placed, payment } = route.useSearch();
  const trpc = useTRPC();
  const order = useQuery(
    trpc.orders.byKey.queryOptions({ orderNumber, key: accessKey }, { retry: false, refetchInterval: pollWhilePaying(payment) }),
  );
  useDocumentTitle(`Order ${orderNumber}`);

  if (order.isPending) return <LoadingState label="Loading your order..." />;
  if (!order.data) {
    return (
      <MissingPage icon={PackageX} title="Order Not Found" link={{ to: '/shop', label: 'Continue Shopping' }}>
        This link does not open an order. Use the link in your order confirmation email.
      </MissingPage>
    );
  }
  const thanks = placed === true || payment === 'done';
  return (
    <OrderDetail order={order.data} thanks={thanks} payment={payment} guest>
      {thanks && order.data.guest && <CreateAccountCard orderNumber={orderNumber} accessKey={accessKey} />}
    </OrderDetail>
  );
}

/** An order number or link that is not one of this customer's orders. */
export function OrderNotFound({ children }: { children: ReactNode }) {
  return (
    <MissingPage icon={PackageX} title="Order Not Found" link={{ to: '/orders', label: 'My Orders' }}>
      {children}
    </MissingPage>
  );
}

function OrderDetail({
  order,
  thanks,
  payment,
  guest = false,
  children,
}: {
  order: Order;
  thanks: boolean;
  payment: PaymentReturn | undefined;
  guest?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      {guest ? <BackLink to="/shop">Continue Shopping</BackLink> : <BackLink to="/orders">My Orders</BackLink>}
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="font-display text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">
            {thanks ? 'Thank you for your order!' : `Order ${order.order_number}`}
          </h1>
          <p className="mt-2 text-stone-600">
            Order number{' '}
            <strong className="font-semibold text-stone-900" data-testid="order-number">
              {order.order_number}
            </strong>{' '}
            · placed {formatDate(order.created_at)}
          </p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          <OrderBadges order={order} />
        </div>
      </div>

      <div className="mt-8 space-y-6">
        <PaymentNotice order={order} payment={payment} />
        {children}
      </div>

      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="space-y-8">
          <Card title="Items">
            <ul className="-my-3 divide-y divide-stone-100" data-testid="order-items">
              {order.items.map((item) => (
                <li key={item.id} className="flex items-center gap-4 py-3">
                  <div className="relative aspect-[4/5] w-16 shrink-0 overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-900/5">
                    <ProductImage
                      image={item.image}
                      alt={item.product_name}
                      sizes="64px"
                      className="absolute inset-0 size-full object-cover"
                    />
                  </div>
                  <div className="min-w-0 flex-1 text-sm">
                    <p className="font-semibold text-stone-900">{item.product_name}</p>
                    <p className="text-stone-600">
                      {item.colour_name && (
                        <span data-testid="item-colour">
                          {item.colour_hex && <Swatch hex={item.colour_hex} className="mr-1 inline-block size-2.5 align-middle" />}
                          {item.colour_name} ·{' '}
                        </span>
                      )}
                      Size {item.size} × {item.quantity} · {formatMoney(item.unit_price)} each
                    </p>
                  </div>
                  <p className="text-sm font-semibold text-stone-900">{formatMoney(item.total_price)}</p>
                </li>
              ))}
            </ul>
            <dl className="mt-6 space-y-2 border-t border-stone-200 pt-4 text-sm">
              <Amount label="Subtotal" value={formatMoney(order.subtotal)} />
              <Amount label="Shipping" value={toCents(order.shipping_cost) === 0 ? 'FREE' : formatMoney(order.shipping_cost)} />
              {toCents(order.tax) > 0 && <Amount label="Tax" value={formatMoney(order.tax)} />}
              {order.discount_code && <Amount {...discountAmount(order.discount_code, order.discount)} />}
              <Amount label="Total" value={formatMoney(order.total)} strong />
            </dl>
          </Card>
        </div>
        <div className="space-y-8">
          <ShippingCard order={order} />
          <HistoryCard events={order.events} />
        </div>
      </div>
    </div>
  );
}

/** Where the order goes and, once it has shipped, how to follow it. */
function ShippingCard({ order }: { order: Order }) {
  return (
    <Card title="Shipping to">
      <address className="text-sm leading-6 whitespace-pre-line text-stone-700 not-italic">
        {[
          order.shipping_address.name,
          order.shipping_address.street,
          `${order.shipping_address.city}, ${order.shipping_address.state} ${order.shipping_address.zip}`,
          order.shipping_address.country,
        ]
          .filter(Boolean)
          .join('\n')}
      </address>
      {order.tracking_number && (
        <p className="mt-4 text-sm text-stone-700">
          Tracking number <span className="font-semibold text-stone-900">{order.tracking_number}</span>
          {order.trackingUrl && (
            <a
              href={order.trackingUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={`${buttonClass({ variant: 'secondary', size: 'sm' })} mt-3 w-full`}
            >
              <Truck className="size-4" aria-hidden="true" />
              Track your package
              <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          )}
        </p>
      )}
    </Card>
  );
}

function HistoryCard({ events }: { events: Order['events'] }) {
  return (
    <Card title="History">
      <ol className="space-y-3" data-testid="order-timeline">
        {events.map((event, index) => (
          <li key={`${event.kind}-${index}`} className="flex gap-3 text-sm">
            <span className="mt-1.5 size-2 shrink-0 rounded-full bg-accent-600" aria-hidden="true" />
            <div>
              <p className="font-medium text-stone-900">{ORDER_EVENT_LABELS[event.kind]}</p>
              <p className="text-stone-500">{formatDateTime(event.created_at)}</p>
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** The applied code's line: "Discount (LAUNCH20)" and "−$9.99". */
function discountAmount(code: string, amount: string) {
  const [label, value] = discountLine(code, amount);
  return { label, value };
}

function Amount({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div
      className={`flex justify-between ${strong ? 'border-t border-stone-200 pt-2 text-base font-bold text-stone-950' : 'text-stone-700'}`}
    >
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** What the customer needs to know about paying: how to pay, that it is being confirmed, or that it is done. */
function PaymentNotice({ order, payment }: { order: Order; payment: PaymentReturn | undefined }) {
  if (order.paymentInstructions !== null) {
    // A store that has not written its instructions yet: the buyer can still ask.
    const written = order.paymentInstructions.trim() !== '';
    return (
      <Notice icon={Landmark} title="How to pay" testId="payment-instructions">
        <p>
          We print your order as soon as your payment arrives.{' '}
          {written ? 'The same instructions are in your confirmation email.' : 'Reply to your confirmation email to ask how to pay.'}
        </p>
        {written && (
          <p className="mt-3 rounded-lg bg-white/70 p-3 font-medium whitespace-pre-line text-stone-900">{order.paymentInstructions}</p>
        )}
      </Notice>
    );
  }
  if (order.paymentUrl !== null) {
    return payment === 'done' ? (
      <Notice icon={LoaderCircle} title="Payment processing" spin testId="payment-processing">
        <p>We are confirming your payment with the card network. This page updates by itself in a moment.</p>
      </Notice>
    ) : (
      <Notice icon={CreditCard} title="Your payment is not complete" testId="payment-incomplete">
        <p>Finish paying to have your order printed.</p>
        <a href={order.paymentUrl} className={`${buttonClass({ variant: 'accent', size: 'lg' })} mt-4`}>
          Complete Payment
        </a>
      </Notice>
    );
  }
  if (order.payment_status === 'paid') {
    return (
      <Notice icon={CircleCheck} title="Payment received" tone="success" testId="payment-received">
        <p>Your tees are printed to order and shipped as soon as they are ready.</p>
      </Notice>
    );
  }
  return null;
}

function Notice({
  icon: Icon,
  title,
  tone = 'info',
  spin = false,
  testId,
  children,
}: {
  icon: typeof Landmark;
  title: string;
  tone?: 'info' | 'success';
  spin?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section
      role="status"
      className={`flex gap-4 rounded-2xl p-5 text-sm leading-6 ring-1 ${tone === 'success' ? 'bg-emerald-50 text-emerald-950 ring-emerald-200' : 'bg-amber-50 text-amber-950 ring-amber-200'}`}
      data-testid={testId}
    >
      <Icon className={`size-6 shrink-0 ${spin ? 'animate-spin' : ''}`} aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold">{title}</h2>
        <div className="mt-1">{children}</div>
      </div>
    </section>
  );
}
