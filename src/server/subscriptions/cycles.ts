import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { SubscriptionsTable } from '../db/schema';
import { addCycles } from './dates';

/**
 * The first of the member's cycle days that has not passed and was not gone through already,
 * counted from `from` (earlier than it when the member comes back early), never one they missed.
 */
export async function nextOpenCycle(db: Db, subscription: Selectable<SubscriptionsTable>, day: string): Promise<string> {
  const last = await db
    .selectFrom('subscription_cycles')
    .select((eb) => eb.fn.max('cycle_start').as('cycle_start'))
    .where('subscription_id', '=', subscription.id)
    .executeTakeFirst();
  const open = (cycle: string) => cycle >= day && (!last?.cycle_start || cycle > last.cycle_start);
  const step = (from: string, cycles: number) => addCycles(from, subscription.billing_interval, cycles, subscription.anchor_day);
  let next = subscription.next_cycle_on;
  while (open(step(next, -1))) next = step(next, -1);
  while (!open(next)) next = step(next, 1);
  return next;
}
