import { centsToAmount } from '../../shared/money';
import { placeOrderInput, quoteInput } from '../../shared/schemas/checkout';
import { DiscountRefused } from '../orders/discounts';
import { placeOrder } from '../orders/place';
import { priceCart, quoteAmounts, readCheckoutSettings } from '../orders/pricing';
import { customerProcedure, emailsTheCaller, publicProcedure, rateLimited, router } from '../trpc/init';

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

  /** Places the order (at most one per idempotency key); a card payment answers where to pay. */
  placeOrder: customerProcedure
    .use(rateLimited('order'))
    .use(emailsTheCaller)
    .input(placeOrderInput)
    .mutation(({ ctx, input }) => placeOrder({ db: ctx.db, config: ctx.config, payments: ctx.payments }, ctx.session.user, input)),
});
