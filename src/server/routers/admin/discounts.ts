import { sql, type Expression, type SqlBool } from 'kysely';
import { toCents } from '../../../shared/money';
import {
  DISCOUNT_CHANGED_ELSEWHERE,
  DISCOUNT_CODE_TAKEN,
  DISCOUNTS_PAGE_SIZE,
  discountInput,
  discountSetActiveInput,
  discountsListInput,
  discountUpdateInput,
  type DiscountStatus,
} from '../../../shared/schemas/admin-discounts';
import type { z } from 'zod';
import { countRows } from '../../db/count';
import { CODE_COLUMNS } from '../../orders/discounts';
import type { Db } from '../../db/database';
import { assertFound, containsPattern, withUniqueColumns } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { readPage } from '../../trpc/paging';
import { updateById } from '../../trpc/update';

// The Discounts screen (docs/adr/0031-discount-rules-and-rounding.md): codes server-paged newest
// first, searched by code and filtered by their state now; create, edit and switch off. A code's
// uses are counted by checkout alone, so nothing here touches used_count.

const COLUMNS = [...CODE_COLUMNS, 'applies_to_club', 'club_cycles', 'is_active', 'created_at', 'updated_at'] as const;

/** A code's state at `now`, in the order a shopper would be refused: off, expired, used up, not started. */
const statusAt = (now: Date) =>
  sql<DiscountStatus>`case
    when not is_active then 'off'
    when ends_at is not null and ends_at <= ${now} then 'expired'
    when usage_limit is not null and used_count >= usage_limit then 'used_up'
    when starts_at is not null and starts_at > ${now} then 'scheduled'
    else 'active' end`;

/** The chosen products' names, for the form (a code keeps only their ids). */
const chosenProducts = sql<{ id: string; name: string }[]>`coalesce((
    select json_agg(json_build_object('id', p.id, 'name', p.name) order by p.name)
    from products p where p.id = any(discount_codes.product_ids)
  ), '[]'::json)`;

/** The columns of the form's values: cents, and calendar days (UTC) as whole-day bounds. */
function columnsOf(values: z.output<typeof discountInput>) {
  const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);
  return {
    code: values.code,
    kind: values.kind,
    value: values.kind === 'percent' ? values.percent : values.kind === 'amount' ? toCents(values.amount ?? 0) : null,
    applies_to: values.applies_to,
    // Only what the code applies to is kept: a form switched back to the whole order leaves no stale choice.
    category_ids: values.applies_to === 'categories' ? values.category_ids : [],
    product_ids: values.applies_to === 'products' ? values.product_ids : [],
    min_subtotal_cents: values.min_subtotal === null ? null : toCents(values.min_subtotal),
    starts_at: values.starts_on ? new Date(`${values.starts_on}T00:00:00Z`) : null,
    // The last day is a whole day: the code ends when it is over.
    ends_at: values.ends_on ? dayAfter(values.ends_on) : null,
    usage_limit: values.usage_limit,
    once_per_customer: values.once_per_customer,
    applies_to_club: values.applies_to_club,
    club_cycles: values.applies_to_club ? values.club_cycles : null,
  };
}

const withUniqueCode = <T>(write: () => Promise<T>) => withUniqueColumns(write, { code: DISCOUNT_CODE_TAKEN });

function readCode(db: Db, id: string) {
  return db.selectFrom('discount_codes').select(COLUMNS).select(statusAt(new Date()).as('status')).where('id', '=', id).executeTakeFirst();
}

export const adminDiscountsRouter = router({
  /** One page of codes, newest first, optionally searched by code and filtered by state. */
  list: adminProcedure.input(discountsListInput).query(async ({ ctx, input }) => {
    const now = new Date();
    const conditions: Expression<SqlBool>[] = [];
    if (input.search) conditions.push(sql<boolean>`code ilike ${containsPattern(input.search)}`);
    if (input.status !== 'all') conditions.push(sql<boolean>`${statusAt(now)} = ${input.status}`);
    let filtered = ctx.db.selectFrom('discount_codes');
    for (const condition of conditions) filtered = filtered.where(condition);
    return readPage(await countRows(filtered), input.page, DISCOUNTS_PAGE_SIZE, () =>
      filtered
        .select(COLUMNS)
        .select(statusAt(now).as('status'))
        .select(chosenProducts.as('products'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    );
  }),

  /** A new code, on; its code unique without regard to case. */
  create: adminProcedure.input(discountInput).mutation(async ({ ctx, input }) => {
    const { id } = await withUniqueCode(() =>
      ctx.db.insertInto('discount_codes').values(columnsOf(input)).returning('id').executeTakeFirstOrThrow(),
    );
    return assertFound(await readCode(ctx.db, id), 'Discount code');
  }),

  /** Only the code as the form loaded it: one changed since is not written over. Its uses so far stay. */
  update: adminProcedure.input(discountUpdateInput).mutation(async ({ ctx, input: { id, updatedAt, ...values } }) => {
    await withUniqueCode(() =>
      updateById(ctx.db, 'discount_codes', id, columnsOf(values), ['id'], 'Discount code', {
        updatedAt,
        changedElsewhere: DISCOUNT_CHANGED_ELSEWHERE,
      }),
    );
    return assertFound(await readCode(ctx.db, id), 'Discount code');
  }),

  /** Switches a code off (checkout then refuses it as not valid) or back on; not stamped, so an open form still saves. */
  setActive: adminProcedure.input(discountSetActiveInput).mutation(async ({ ctx, input }) => {
    const row = await ctx.db
      .updateTable('discount_codes')
      .set({ is_active: input.is_active })
      .where('id', '=', input.id)
      .returning('id')
      .executeTakeFirst();
    assertFound(row, 'Discount code');
    return assertFound(await readCode(ctx.db, input.id), 'Discount code');
  }),
});
