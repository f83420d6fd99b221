import type { Db } from '../db/database';
import { enqueueEmail } from '../email/queue';
import { membershipEmail, type MembershipChange } from '../email/templates/subscriptions';
import type { MailSettings } from '../orders/transitions';

/** Queues the short email that tells a member what happened to their membership. */
export async function notifyMember(db: Db, mail: MailSettings, subscriptionId: string, change: MembershipChange): Promise<void> {
  const member = await db
    .selectFrom('subscriptions')
    .innerJoin('subscription_plans', 'subscription_plans.id', 'subscriptions.plan_id')
    .innerJoin('customers', 'customers.id', 'subscriptions.customer_id')
    .select(['subscription_plans.name', 'customers.email'])
    .where('subscriptions.id', '=', subscriptionId)
    .executeTakeFirst();
  // A member who erased their account has no address left to write to.
  if (!member) return;
  await enqueueEmail(db, membershipEmail(mail, { customerEmail: member.email, planName: member.name }, change), mail.emailMaxRetries);
}
