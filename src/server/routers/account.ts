import { customerProcedure, router } from '../trpc/init';

export const accountRouter = router({
  /** The signed-in user's customers row (SPEC §7 "Read customers by id"); null if it has none. */
  profile: customerProcedure.query(async ({ ctx }) => {
    const customer = await ctx.db
      .selectFrom('customers')
      .select(['id', 'email', 'first_name', 'last_name', 'phone', 'shipping_address', 'billing_address', 'updated_at'])
      .where('id', '=', ctx.session.user.id)
      .executeTakeFirst();
    return customer ?? null;
  }),
});
