import { TRPCError } from '@trpc/server';
import { centsToAmount } from '../../shared/money';
import { GUEST_EMAIL_REQUIRED, guestAccountInput, placeOrderInput, quoteInput, SIGN_IN_TO_CHECK_OUT } from '../../shared/schemas/checkout';
import { hashPassword } from '../auth/password';
import { DiscountRefused } from '../orders/discounts';
import { guestOrderByKey } from '../orders/guests';
import { placeOrder, type Buyer } from '../orders/place';
import { priceCart, quoteAmounts, readCheckoutSettings } from '../orders/pricing';
import { fieldError, notFound } from '../trpc/errors';
import { emailsTheCaller, publicProcedure, rateLimited, router, type Context } from '../trpc/init';
import { completeSignUp } from './auth';

/**
 * Who places the order: the signed-in customer, or a guest by the address they typed, when the
 * shop lets guests check out. Nothing here looks at accounts: a guest's answer is the same whether
 * or not the address has one (docs/adr/0027-guest-checkout.md).
 */
async function buyerOf(ctx: Context, email: string | undefined): Promise<Buyer> {
  if (ctx.session) return { kind: 'customer', id: ctx.session.user.id, email: ctx.session.user.email };
  const { guest_checkout: guestsAllowed } = await ctx.db.selectFrom('store_settings').select('guest_checkout').executeTakeFirstOrThrow();
  if (!guestsAllowed) throw new TRPCError({ code: 'UNAUTHORIZED', message: SIGN_IN_TO_CHECK_OUT });
  if (!email) throw fieldError('BAD_REQUEST', 'email', GUEST_EMAIL_REQUIRED);
  return { kind: 'guest', email };
}

export const checkoutRouter = router({
  /**
   * The cart priced as checkout would charge it today: each line with its current price or the
   * reason it cannot be bought, shipping and tax from the store's settings, and how payment works.
   * Public: the cart page shows the same amounts before anyone signs in.
   */
  quote: publicProcedure.input(quoteInput).query(async ({ ctx, input }) => {
    const settings = await readCheckoutSettings(ctx.db);
    // A refused code leaves the cart priced without it, the refusal shown under the field.
    let discountError: string | null = null;
    const customerId = ctx.session?.user.id ?? null;
    const quote = await priceCart(
      ctx.db,
      input.lines,
      settings,
      input.discountCode ? { code: input.discountCode, customerId } : null,
    ).catch((error: unknown) => {
      if (!(error instanceof DiscountRefused)) throw error;
      discountError = error.message;
      return priceCart(ctx.db, input.lines, settings);
    });
    return {
      lines: quote.lines.map((line) => ({
        productId: line.productId,
        colourId: line.colourId,
        colourName: line.colourName,
        colourHex: line.colourHex,
        size: line.size,
        quantity: line.quantity,
        name: line.name,
        slug: line.slug,
        imageUrl: line.imageUrl,
        unitPrice: centsToAmount(line.unitCents),
        lineTotal: centsToAmount(line.totalCents),
        problem: line.problem,
      })),
      ...quoteAmounts(quote),
      discountCode: quote.discount?.code ?? null,
      discountError,
      payment: { provider: ctx.payments.name, instructions: ctx.payments.name === 'manual' ? settings.payment_instructions : null },
    };
  }),

  /** What shipping costs, for the storefront's promises ("Free shipping on every order" only when it is true). */
  shippingPolicy: publicProcedure.query(async ({ ctx }) => {
    const { flat_shipping_rate, free_shipping_threshold } = await readCheckoutSettings(ctx.db);
    return { flatRate: flat_shipping_rate, freeFrom: free_shipping_threshold };
  }),

  /** Whether a signed-out visitor may check out (the checkout page asks before it sends them to sign in). */
  guestsAllowed: publicProcedure.query(async ({ ctx }) => {
    const { guest_checkout: allowed } = await ctx.db.selectFrom('store_settings').select('guest_checkout').executeTakeFirstOrThrow();
    return allowed;
  }),

  /**
   * Places the order (at most one per idempotency key); a card payment answers where to pay. A
   * signed-in customer's goes on their account; a guest's is placed against the address they
   * gave, within that address's hour of emails, and answers the key its page opens with.
   */
  placeOrder: publicProcedure
    .use(rateLimited('order'))
    .use(emailsTheCaller)
    .input(placeOrderInput)
    .mutation(async ({ ctx, input }) =>
      placeOrder({ db: ctx.db, config: ctx.config, payments: ctx.payments, log: ctx.log }, await buyerOf(ctx, input.email), input),
    ),

  /**
   * "Create an account" on a guest order's thank-you page: a password, the address being the
   * order's. It goes as a sign-up does (auth.signUp): the same answer, in the same time, whether
   * or not the address has an account; what follows reaches only the inbox, whose confirmation
   * link signs in, takes the order into the account and comes back to the order.
   */
  createAccount: publicProcedure
    .use(rateLimited('signUp'))
    .input(guestAccountInput)
    .mutation(async ({ ctx, input }) => {
      const order = await guestOrderByKey(ctx.db, input.orderNumber, input.key);
      if (!order) throw notFound('Order');
      const passwordHash = await hashPassword(input.password);
      const browserSecret = ctx.markSignUpBrowser();
      const { email } = order;
      const returnTo = `/orders/${order.orderNumber}`;
      // An order taken into its account already gets the note that the address has one; an erased one, nothing.
      ctx.background.run(
        () => (email ? completeSignUp(ctx, email, passwordHash, browserSecret, returnTo) : Promise.resolve()),
        ctx.answerSent(),
        ctx.log,
        'sign-up from a guest order',
      );
      return { ok: true as const };
    }),
});
