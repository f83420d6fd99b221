import { z } from 'zod';
import { SUBSCRIBER_FILTERS } from '../constants';
import { subscriptionIdInput } from './subscriptions';

// Inputs of the admin Subscribers screen: the members of the club, shared by the
// procedures and the screen. Pause and cancel on a member's behalf take the member's own inputs
// (pauseInput, cancelInput in ./subscriptions).

export const SUBSCRIBERS_PAGE_SIZE = 20;

/** The list's search text, plan, status and page; also the page's URL search params. */
export const subscribersListInput = z.object({
  search: z.string().trim().max(200).optional(),
  planId: z.uuid({ error: 'Invalid plan' }).optional(),
  status: z.enum(SUBSCRIBER_FILTERS, { error: 'Invalid status' }).default('all'),
  page: z.int({ error: 'Invalid page' }).min(1, { error: 'Invalid page' }).max(100_000, { error: 'Invalid page' }).default(1),
});

export const subscriberGetInput = subscriptionIdInput;
