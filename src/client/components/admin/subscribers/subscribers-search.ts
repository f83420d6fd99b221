import { SUBSCRIBER_FILTERS, type SubscriberFilter } from '../../../../shared/constants';
import { id, oneOf, pageNumber, searchParams, text } from '../../../search-params';

// Typed URL search params of /admin/subscribers, so a search, filters and page survive a reload
// and can be shared. A hand-edited or stale value falls back instead of failing the page.
export const subscribersSearchSchema = searchParams<{ search?: string; planId?: string; status?: SubscriberFilter; page?: number }>()(
  (raw) => ({
    search: text(raw.search, 200),
    planId: id(raw.planId),
    status: oneOf(SUBSCRIBER_FILTERS, raw.status),
    page: pageNumber(raw.page),
  }),
);
export type SubscribersSearch = ReturnType<typeof subscribersSearchSchema>;

/** The admin.subscribers.list input for these params. */
export const listInputOf = (search: SubscribersSearch) => ({
  search: search.search || undefined,
  planId: search.planId,
  status: search.status ?? 'all',
  page: search.page ?? 1,
});
