import { createFileRoute, useNavigate, useSearch } from '@tanstack/react-router';
import { AnalyticsPage } from '../../components/admin/analytics/AnalyticsPage';
import { calendarDayParam, DEFAULT_RANGE, RANGE_VALUES } from '../../../shared/analytics-ranges';
import { oneOf } from '../../search-params';

// Route options load with the storefront's first page, so this route has none but its component
// (split off with the admin's chunks): the range is read from the address there.
export const Route = createFileRoute('/admin/analytics')({ component: AnalyticsRoute });

function AnalyticsRoute() {
  const raw: Record<string, unknown> = useSearch({ strict: false });
  const navigate = useNavigate();
  const range = oneOf(RANGE_VALUES, raw.range) ?? DEFAULT_RANGE;
  return (
    <AnalyticsPage
      search={{ range, from: calendarDayParam(raw.from), to: calendarDayParam(raw.to) }}
      // The default range stays out of the address.
      onSearchChange={(next) =>
        void navigate({ to: '/admin/analytics', search: next.range === DEFAULT_RANGE ? {} : next, resetScroll: false } as never)
      }
    />
  );
}
