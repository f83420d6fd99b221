import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import {
  addToCustomersInput,
  CUSTOMERS_PAGE_SIZE,
  customersListInput,
  LAST_ADMIN_MESSAGE,
  privacyRequestInput,
  UNCONFIRMED_ADMIN_MESSAGE,
  setAdminInput,
} from '../../../shared/schemas/admin-people';
import { countRows } from '../../db/count';
import { isUniqueViolation } from '../../db/errors';
import { publishEvent } from '../../events/events';
import { eraseAccount, erasureServices } from '../../privacy/erase';
import { exportPersonalData } from '../../privacy/export';
import { containsPattern, notFound } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { readPage } from '../../trpc/paging';

const NOT_IN_CUSTOMERS = 'This user is not in customers';

export const adminCustomersRouter = router({
  /**
   * One page of registered users with their customers row, if any (docs/PRODUCT.md § Records "User (admin users
   * list)"), newest first, of one filter button and optionally searched by email or name; plus
   * the counts of the filter buttons, which are of every user whatever the filter or search.
   * Only these columns leave the server.
   */
  list: adminProcedure.input(customersListInput).query(async ({ ctx, input }) => {
    const usersWithCustomers = ctx.db.selectFrom('users').leftJoin('customers', 'customers.id', 'users.id');
    let filtered = usersWithCustomers
      .$if(input.filter === 'confirmed', (qb) => qb.where('users.email_confirmed_at', 'is not', null))
      .$if(input.filter === 'unconfirmed', (qb) => qb.where('users.email_confirmed_at', 'is', null))
      .$if(input.filter === 'not_in_customers', (qb) => qb.where('customers.id', 'is', null));
    if (input.search) {
      const pattern = containsPattern(input.search);
      filtered = filtered.where((eb) =>
        eb.or([
          eb('users.email', 'ilike', pattern),
          // "Ada Boss" finds Ada Boss: the name as the list shows it.
          eb(sql<string>`concat_ws(' ', customers.first_name, customers.last_name)`, 'ilike', pattern),
        ]),
      );
    }
    const [total, counts] = await Promise.all([
      countRows(filtered),
      usersWithCustomers
        .select([
          sql<number>`count(*)::int`.as('all'),
          sql<number>`(count(*) filter (where users.email_confirmed_at is not null))::int`.as('confirmed'),
          sql<number>`(count(*) filter (where users.email_confirmed_at is null))::int`.as('unconfirmed'),
          sql<number>`(count(*) filter (where customers.id is null))::int`.as('not_in_customers'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    const { items, ...pager } = await readPage(total, input.page, CUSTOMERS_PAGE_SIZE, () =>
      filtered
        .select([
          'users.id',
          'users.email',
          'users.email_confirmed_at',
          'users.last_sign_in_at',
          'customers.is_admin',
          sql<boolean>`customers.id is not null`.as('has_customer_record'),
          sql<string | null>`nullif(btrim(customers.first_name || ' ' || customers.last_name), '')`.as('full_name'),
        ])
        .orderBy('users.created_at', 'desc')
        .orderBy('users.id'),
    );
    return {
      items: items.map((row) => ({
        id: row.id,
        email: row.email,
        email_confirmed_at: row.email_confirmed_at,
        last_sign_in_at: row.last_sign_in_at,
        has_customer_record: row.has_customer_record,
        customer_data: row.has_customer_record ? { full_name: row.full_name, is_admin: row.is_admin === true } : null,
      })),
      ...pager,
      counts,
    };
  }),

  /** Creates the user's customers row with empty names and phone, not an admin (docs/PRODUCT.md § Records). */
  addToCustomers: adminProcedure.input(addToCustomersInput).mutation(async ({ ctx, input }) => {
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', input.userId).executeTakeFirst();
        if (!user) throw notFound('User');
        const inserted = await trx
          .insertInto('customers')
          .values({ id: user.id, email: user.email, first_name: '', last_name: '', phone: '', is_admin: false })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) throw new TRPCError({ code: 'CONFLICT', message: 'This user is already in customers' });
        // The user's own open pages (account, settings) re-read their record.
        await publishEvent(trx, { type: 'customer_changed', userId: user.id });
        return { userId: user.id };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new TRPCError({ code: 'CONFLICT', message: 'Another customer already uses this email address' });
      throw error;
    }
  }),

  /**
   * Make Admin / Remove Admin. The change shows on the user's very next request (adminProcedure
   * re-reads is_admin) and on their open pages at once (customer_changed). The store always
   * keeps at least one admin, an admin demoting themselves included; an address not confirmed
   * (which anyone could have signed up with) is not made an admin.
   */
  setAdmin: adminProcedure.input(setAdminInput).mutation(({ ctx, input }) =>
    ctx.db.transaction().execute(async (trx) => {
      if (input.isAdmin) {
        const user = await trx.selectFrom('users').select('email_confirmed_at').where('id', '=', input.userId).executeTakeFirst();
        if (user && !user.email_confirmed_at) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: UNCONFIRMED_ADMIN_MESSAGE });
      } else {
        // Every admin row is locked, always in id order, before counting: two demotions at once
        // queue here, and the second counts after the first has committed, so neither can take
        // away the last admin (and the fixed order means they cannot deadlock).
        const admins = await trx.selectFrom('customers').select('id').where('is_admin', '=', true).orderBy('id').forUpdate().execute();
        if (admins.length === 1 && admins[0]?.id === input.userId) throw new TRPCError({ code: 'CONFLICT', message: LAST_ADMIN_MESSAGE });
      }
      const updated = await trx
        .updateTable('customers')
        .set({ is_admin: input.isAdmin, updated_at: new Date() })
        .where('id', '=', input.userId)
        .returning(['id', 'is_admin'])
        .executeTakeFirst();
      if (!updated) throw new TRPCError({ code: 'NOT_FOUND', message: NOT_IN_CUSTOMERS });
      await publishEvent(trx, { type: 'customer_changed', userId: updated.id });
      return { userId: updated.id, isAdmin: updated.is_admin };
    }),
  ),

  /** A customer's request for their data, answered by the admin: the same document Download my data gives them. */
  exportData: adminProcedure
    .input(privacyRequestInput)
    .query(({ ctx, input }) => exportPersonalData(ctx.db, input.userId, ctx.clock.now())),

  /** A customer's request to be forgotten, carried out by the admin: the same erasure as Delete my account. */
  deleteAccount: adminProcedure.input(privacyRequestInput).mutation(async ({ ctx, input }) => {
    const { email } = await eraseAccount(erasureServices(ctx), input.userId);
    ctx.log.info({ userId: input.userId, by: ctx.session.user.id }, 'account erased by an admin');
    return { userId: input.userId, email };
  }),
});
