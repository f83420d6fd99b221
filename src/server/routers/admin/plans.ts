import { TRPCError } from '@trpc/server';
import { PLAN_NOT_FOUND, PLAN_SLUG_TAKEN, planIdInput, planInput, planSetActiveInput, planUpdateInput } from '../../../shared/schemas/admin-plans';
import { isUniqueViolation } from '../../db/errors';
import { adminProcedure, router } from '../../trpc/init';

const COLUMNS = ['id', 'name', 'slug', 'description', 'price', 'billing_interval', 'category_limit', 'is_active', 'features', 'updated_at'] as const;

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: PLAN_NOT_FOUND });

async function withSlugCheck<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new TRPCError({ code: 'CONFLICT', message: PLAN_SLUG_TAKEN });
    throw error;
  }
}

export const adminPlansRouter = router({
  /** Every plan, active or not (SPEC §7 admin: all), cheapest first like the public page. */
  list: adminProcedure.query(({ ctx }) =>
    ctx.db.selectFrom('subscription_plans').select(COLUMNS).orderBy('price').orderBy('name').orderBy('id').execute(),
  ),

  create: adminProcedure.input(planInput).mutation(({ ctx, input }) =>
    withSlugCheck(() =>
      ctx.db
        .insertInto('subscription_plans')
        .values({ ...input, price: input.price.toFixed(2) })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
    ),
  ),

  update: adminProcedure.input(planUpdateInput).mutation(async ({ ctx, input: { id, ...fields } }) => {
    const row = await withSlugCheck(() =>
      ctx.db
        .updateTable('subscription_plans')
        .set({ ...fields, price: fields.price.toFixed(2), updated_at: new Date() })
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirst(),
    );
    if (!row) throw notFound();
    return row;
  }),

  setActive: adminProcedure.input(planSetActiveInput).mutation(async ({ ctx, input }) => {
    const row = await ctx.db
      .updateTable('subscription_plans')
      .set({ is_active: input.is_active, updated_at: new Date() })
      .where('id', '=', input.id)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }),

  delete: adminProcedure.input(planIdInput).mutation(async ({ ctx, input }) => {
    const row = await ctx.db.deleteFrom('subscription_plans').where('id', '=', input.id).returning('id').executeTakeFirst();
    if (!row) throw notFound();
    return { deleted: true };
  }),
});
