import { z } from 'zod';
import { SUBSCRIBER_FILTERS } from '../../../../shared/schemas/admin-subscribers';

// Typed URL search params of /admin/subscribers, so a search, filters and page survive a reload
// and can be shared. A hand-edited or stale value falls back instead of failing the page.
export const subscribersSearchSchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  planId: z.uuid().optional().catch(undefined),
  status: z.enum(SUBSCRIBER_FILTERS).optional().catch(undefined),
  page: z.number().int().min(1).max(100_000).optional().catch(undefined),
});
export type SubscribersSearch = z.infer<typeof subscribersSearchSchema>;

/** The admin.subscribers.list input for these params. */
export const listInputOf = (search: SubscribersSearch) => ({
  search: search.search || undefined,
  planId: search.planId,
  status: search.status ?? 'all',
  page: search.page ?? 1,
});
