import { publicProcedure, router } from '../trpc/init';

export const subscriptionsRouter = router({
  /** Active plans, cheapest first (SPEC §7). */
  plans: publicProcedure.query(({ ctx }) =>
    ctx.db
      .selectFrom('subscription_plans')
      .select(['id', 'name', 'slug', 'description', 'price', 'billing_interval', 'category_limit', 'features'])
      .where('is_active', '=', true)
      .orderBy('price')
      .orderBy('name')
      .execute(),
  ),
});
