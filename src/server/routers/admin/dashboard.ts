import { sql } from 'kysely';
import { RECENT_CONTACT_LIMIT } from '../../../shared/constants';
import { adminProcedure, router } from '../../trpc/init';

export const adminDashboardRouter = router({
  /** Stat cards and recent contact submissions; revenue is summed in SQL on numeric, never in floats. */
  overview: adminProcedure.query(async ({ ctx }) => {
    const [counts, recentContacts] = await Promise.all([
      ctx.db
        .selectNoFrom([
          sql<number>`(select count(*) from products)::int`.as('totalProducts'),
          sql<number>`(select count(*) from orders)::int`.as('totalOrders'),
          sql<number>`(select count(*) from customers)::int`.as('totalCustomers'),
          // Revenue is money received: paid orders only.
          sql<string>`(select coalesce(sum(total), 0)::numeric(12, 2)::text from orders where payment_status = 'paid')`.as('totalRevenue'),
        ])
        .executeTakeFirstOrThrow(),
      ctx.db
        .selectFrom('contact_submissions')
        .select(['id', 'name', 'email', 'subject', 'status', 'created_at'])
        .orderBy('created_at', 'desc')
        .limit(RECENT_CONTACT_LIMIT)
        .execute(),
    ]);
    return { ...counts, recentContacts };
  }),
});
