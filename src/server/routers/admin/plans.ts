import { TRPCError } from '@trpc/server';
import type { Updateable } from 'kysely';
import {
  PLAN_HAS_MEMBERS,
  PLAN_SLUG_TAKEN,
  planIdInput,
  planInput,
  planSetActiveInput,
  planUpdateInput,
} from '../../../shared/schemas/admin-plans';
import type { Db } from '../../db/database';
import { isForeignKeyViolation } from '../../db/errors';
import type { SubscriptionPlansTable } from '../../db/schema';
import { assertFound, withUniqueSlug } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';

const COLUMNS = [
  'id',
  'name',
  'slug',
  'description',
  'price',
  'billing_interval',
  'category_limit',
  'is_active',
  'features',
  'updated_at',
] as const;

/** Changes one plan and returns it as the screen shows it; NOT_FOUND when it is gone. */
async function updatePlan(db: Db, id: string, values: Updateable<SubscriptionPlansTable>) {
  const row = await db
    .updateTable('subscription_plans')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return assertFound(row, 'Plan');
}

export const adminPlansRouter = router({
  /** Every plan, active or not (SPEC §7 admin: all), cheapest first like the public page. */
  list: adminProcedure.query(({ ctx }) =>
    ctx.db.selectFrom('subscription_plans').select(COLUMNS).orderBy('price').orderBy('name').orderBy('id').execute(),
  ),

  create: adminProcedure.input(planInput).mutation(({ ctx, input }) =>
    withUniqueSlug(
      () =>
        ctx.db
          .insertInto('subscription_plans')
          .values({ ...input, price: input.price.toFixed(2) })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow(),
      PLAN_SLUG_TAKEN,
    ),
  ),

  update: adminProcedure
    .input(planUpdateInput)
    .mutation(({ ctx, input: { id, ...fields } }) =>
      withUniqueSlug(() => updatePlan(ctx.db, id, { ...fields, price: fields.price.toFixed(2) }), PLAN_SLUG_TAKEN),
    ),

  setActive: adminProcedure
    .input(planSetActiveInput)
    .mutation(({ ctx, input }) => updatePlan(ctx.db, input.id, { is_active: input.is_active })),

  /** Members (past ones too) keep their plan: such a plan can only be deactivated. */
  delete: adminProcedure.input(planIdInput).mutation(async ({ ctx, input }) => {
    try {
      assertFound(await ctx.db.deleteFrom('subscription_plans').where('id', '=', input.id).returning('id').executeTakeFirst(), 'Plan');
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new TRPCError({ code: 'CONFLICT', message: PLAN_HAS_MEMBERS });
      throw error;
    }
    return { deleted: true };
  }),
});
