import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import {
  CATEGORY_CHANGED_ELSEWHERE,
  CATEGORY_SLUG_TAKEN,
  categoryIdInput,
  categoryInput,
  categoryInUseMessage,
  categoryMoveInput,
  categorySetActiveInput,
  categoryUpdateInput,
} from '../../../shared/schemas/admin-categories';
import { countRows } from '../../db/count';
import type { Db } from '../../db/database';
import { isForeignKeyViolation } from '../../db/errors';
import { assertFound, withUniqueSlug } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { updateById } from '../../trpc/update';

const COLUMNS = ['id', 'slug', 'name', 'description', 'image_url', 'is_active', 'sort_order', 'updated_at'] as const;

/**
 * Every change of sort_order (insert, move, delete) takes this lock first. The mode conflicts with
 * itself, so those changes run one at a time across all connections and processes, each reading
 * the order the previous one committed: no duplicates, no gaps. Plain reads are never blocked.
 */
const lockSortOrder = (trx: Db) => sql`lock table categories in share row exclusive mode`.execute(trx);

const productCount = (db: Db, categoryId: string) => countRows(db.selectFrom('products').where('category_id', '=', categoryId));

export const adminCategoriesRouter = router({
  /** Every category, active or not, in sort_order, with how many products each holds. */
  list: adminProcedure.query(({ ctx }) =>
    ctx.db
      .selectFrom('categories as c')
      .select(COLUMNS.map((column) => `c.${column}` as const))
      .select(sql<number>`(select count(*)::int from products p where p.category_id = c.id)`.as('product_count'))
      .orderBy('c.sort_order')
      .execute(),
  ),

  /** A new category goes last: sort_order = max + 1, read under the lock so two inserts never pick the same value. */
  create: adminProcedure.input(categoryInput).mutation(({ ctx, input }) =>
    withUniqueSlug(
      () =>
        ctx.db.transaction().execute(async (trx) => {
          await lockSortOrder(trx);
          const { next } = await trx
            .selectFrom('categories')
            .select(sql<number>`coalesce(max(sort_order), 0)::int + 1`.as('next'))
            .executeTakeFirstOrThrow();
          return trx
            .insertInto('categories')
            .values({ ...input, sort_order: next })
            .returning(COLUMNS)
            .executeTakeFirstOrThrow();
        }),
      CATEGORY_SLUG_TAKEN,
    ),
  ),

  /** Only the category as the form loaded it: one changed since (another tab, another admin) is not written over. */
  update: adminProcedure
    .input(categoryUpdateInput)
    .mutation(({ ctx, input: { id, updatedAt, ...fields } }) =>
      withUniqueSlug(
        () =>
          updateById(ctx.db, 'categories', id, fields, COLUMNS, 'Category', { updatedAt, changedElsewhere: CATEGORY_CHANGED_ELSEWHERE }),
        CATEGORY_SLUG_TAKEN,
      ),
    ),

  /** Like a move, not stamped: the edit form does not save is_active, so a form open meanwhile still saves. */
  setActive: adminProcedure
    .input(categorySetActiveInput)
    .mutation(async ({ ctx, input }) =>
      assertFound(
        await ctx.db
          .updateTable('categories')
          .set({ is_active: input.is_active })
          .where('id', '=', input.id)
          .returning(COLUMNS)
          .executeTakeFirst(),
        'Category',
      ),
    ),

  /**
   * Swaps sort_order with the neighbour above or below; at the top (or bottom) nothing moves. A
   * place in the order is not part of what the edit form saves, so neither this nor the shift
   * after a delete stamps updated_at: a form open on a category that only moved still saves.
   */
  move: adminProcedure.input(categoryMoveInput).mutation(({ ctx, input }) =>
    ctx.db.transaction().execute(async (trx) => {
      await lockSortOrder(trx);
      const row = assertFound(
        await trx.selectFrom('categories').select(['id', 'sort_order']).where('id', '=', input.id).executeTakeFirst(),
        'Category',
      );
      const up = input.direction === 'up';
      const neighbour = await trx
        .selectFrom('categories')
        .select(['id', 'sort_order'])
        .where('sort_order', up ? '<' : '>', row.sort_order)
        .orderBy('sort_order', up ? 'desc' : 'asc')
        .limit(1)
        .executeTakeFirst();
      if (!neighbour) return { moved: false };
      // The unique constraint on sort_order is deferred to commit, so the two rows can trade values.
      await trx.updateTable('categories').set({ sort_order: neighbour.sort_order }).where('id', '=', row.id).execute();
      await trx.updateTable('categories').set({ sort_order: row.sort_order }).where('id', '=', neighbour.id).execute();
      return { moved: true };
    }),
  ),

  /**
   * Deletes a category without products and closes the gap it leaves in sort_order, and takes it
   * out of club members' choices. One that still has products is refused (their foreign key is ON
   * DELETE RESTRICT): the admin is told how many.
   */
  delete: adminProcedure.input(categoryIdInput).mutation(async ({ ctx, input }) => {
    let name = '';
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await lockSortOrder(trx);
        const row = assertFound(
          await trx.selectFrom('categories').select(['name', 'sort_order']).where('id', '=', input.id).executeTakeFirst(),
          'Category',
        );
        name = row.name;
        const count = await productCount(trx, input.id);
        if (count > 0) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: categoryInUseMessage(row.name, count) });
        await trx.deleteFrom('categories').where('id', '=', input.id).execute();
        // Club members who chose it keep their other choices (none left: every category).
        await trx
          .updateTable('subscriptions')
          .set({ category_ids: sql<string[]>`array_remove(category_ids, ${input.id}::uuid)`, updated_at: new Date() })
          .where(sql<boolean>`${input.id}::uuid = any(category_ids)`)
          .execute();
        // Not stamped: a place in the order is not what the edit form saves (see move).
        await trx
          .updateTable('categories')
          .set({ sort_order: sql<number>`sort_order - 1` })
          .where('sort_order', '>', row.sort_order)
          .execute();
      });
    } catch (error) {
      // A product added to it between the count and the delete.
      if (isForeignKeyViolation(error)) {
        throw new TRPCError({ code: 'PRECONDITION_FAILED', message: categoryInUseMessage(name, await productCount(ctx.db, input.id)) });
      }
      throw error;
    }
    return { deleted: true };
  }),
});
