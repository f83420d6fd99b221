import { z } from 'zod';
import { MAX_LINE_QUANTITY, SIZES } from '../constants';
import { requiredAddress } from './account';
import { newPasswordField } from './auth';
import { discountCodeInput } from './discounts';
import { emailAddress, optionalPhone, requiredLine } from './fields';

// Checkout (docs/PRODUCT.md § Screens, Checkout): what the client sends to price and place an order. It sends
// products, sizes and quantities only; the server prices everything.

export const EMPTY_CART = 'Your cart is empty';
/** For what only a tampered request can get wrong. */
export const INVALID_REQUEST = 'Invalid request';
export const QUANTITY_RANGE = `Quantity must be between 1 and ${MAX_LINE_QUANTITY}`;
/** More lines than a cart of this store can hold (each line is one product in one size). */
export const MAX_ORDER_LINES = 50;

export const cartLineInput = z.object({
  productId: z.uuid({ error: 'Unknown product' }),
  /** The shirt colour; absent on lines of carts saved before products had colours: the product's first colour. */
  colourId: z.uuid({ error: 'Unknown colour' }).optional(),
  size: z.enum(SIZES, { error: 'Unknown size' }),
  quantity: z.number({ error: QUANTITY_RANGE }).int({ error: QUANTITY_RANGE }).min(1, { error: QUANTITY_RANGE }).max(MAX_LINE_QUANTITY, {
    error: QUANTITY_RANGE,
  }),
});
export type CartLineInput = z.infer<typeof cartLineInput>;

/** Lines of one variant (product, colour, size) are one line of the order (the server adds them up, as the cart does). */
export const orderLineKey = (line: Pick<CartLineInput, 'productId' | 'colourId' | 'size'>) =>
  `${line.productId}:${line.colourId ?? ''}:${line.size}`;

/** Whether every line, once lines of the same product and size are added up, stays within the quantity range. */
function mergedQuantitiesInRange(lines: readonly CartLineInput[]): boolean {
  const totals = new Map<string, number>();
  for (const line of lines) {
    const total = (totals.get(orderLineKey(line)) ?? 0) + line.quantity;
    if (total > MAX_LINE_QUANTITY) return false;
    totals.set(orderLineKey(line), total);
  }
  return true;
}

const cartLines = z
  .array(cartLineInput, { error: EMPTY_CART })
  .min(1, { error: EMPTY_CART })
  .max(MAX_ORDER_LINES, { error: `An order can have at most ${MAX_ORDER_LINES} lines` })
  .refine(mergedQuantitiesInRange, { error: QUANTITY_RANGE });

export const quoteInput = z.object({ lines: cartLines, discountCode: discountCodeInput.optional() });

/** Who receives the order and where: the checkout form's fields (the account's address prefills them). */
export const shippingInput = requiredAddress.extend({
  first_name: requiredLine('First name', 100),
  last_name: requiredLine('Last name', 100),
  phone: optionalPhone(),
});
export type ShippingInput = z.input<typeof shippingInput>;

/** An amount as the page was shown it ("29.99"), sent back so the server can tell whether it still holds. */
export const shownAmount = z.string().regex(/^\d{1,9}\.\d{2}$/, { error: INVALID_REQUEST });

export const GUEST_EMAIL_REQUIRED = 'Email is required';
/** The shop has turned guest checkout off (Admin → Settings → Checkout). */
export const SIGN_IN_TO_CHECK_OUT = 'Please sign in to check out.';
export const guestEmailField = emailAddress(GUEST_EMAIL_REQUIRED);

export const placeOrderInput = z.object({
  /** A guest's address, where the order's emails go; a signed-in customer's account address is used instead. */
  email: guestEmailField.optional(),
  /** Made once per cart submission by the client: a retry or a second click finds the same order. */
  idempotencyKey: z.uuid({ error: INVALID_REQUEST }),
  lines: cartLines,
  shipping: shippingInput,
  /** Also keep this address (and names, phone) on the customer's account. */
  saveToAccount: z.boolean().default(false),
  /**
   * The total the buyer was shown (checkout.quote's): an order that would now come to another
   * (shipping or tax changed meanwhile) is refused rather than placed for an amount never shown.
   */
  expectedTotal: shownAmount.optional(),
  /** A discount code the buyer applied; refused as the quote would refuse it. */
  discountCode: discountCodeInput.optional(),
});
export type PlaceOrderInput = z.infer<typeof placeOrderInput>;

export const orderNumberInput = z.object({
  orderNumber: z
    .string()
    .trim()
    .regex(/^TL-\d{1,12}$/, { error: 'Order not found' }),
});
/** A guest order's page: its number and the key from its address (docs/adr/0027-guest-checkout.md). */
export const orderKeyField = z.string().trim().min(1).max(200);
export const orderByKeyInput = orderNumberInput.extend({ key: orderKeyField });
/** "Create an account" on a guest order's thank-you page: the order's address, a password of the buyer's. */
export const guestAccountInput = orderByKeyInput.extend({ password: newPasswordField });

export const ordersPageInput = z.object({ page: z.number().int().min(1).max(100_000).default(1) });
export const CUSTOMER_ORDERS_PAGE_SIZE = 10;
