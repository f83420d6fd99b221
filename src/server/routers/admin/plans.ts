import { TRPCError } from '@trpc/server';
import {
  PLAN_CHANGED_ELSEWHERE,
  PLAN_HAS_MEMBERS,
  PLAN_SLUG_TAKEN,
  planIdInput,
  planInput,
  planSetActiveInput,
  planUpdateInput,
} from '../../../shared/schemas/admin-plans';
import { isForeignKeyViolation } from '../../db/errors';
import { assertFound, withUniqueSlug } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { updateById } from '../../trpc/update';

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

export const adminPlansRouter = router({
  /** Every plan, active or not (docs/PRODUCT.md § Reads and writes admin: all), cheapest first like the public page. */
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

  update: adminProcedure.input(planUpdateInput).mutation(({ ctx, input: { id, updatedAt, ...fields } }) =>
    withUniqueSlug(
      () =>
        updateById(ctx.db, 'subscription_plans', id, { ...fields, price: fields.price.toFixed(2) }, COLUMNS, 'Plan', {
          updatedAt,
          changedElsewhere: PLAN_CHANGED_ELSEWHERE,
        }),
      PLAN_SLUG_TAKEN,
    ),
  ),

  setActive: adminProcedure
    .input(planSetActiveInput)
    .mutation(({ ctx, input }) => updateById(ctx.db, 'subscription_plans', input.id, { is_active: input.is_active }, COLUMNS, 'Plan')),

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
