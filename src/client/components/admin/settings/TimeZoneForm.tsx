import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { TIME_ZONE_SAVED, timeZones } from '../../../../shared/schemas/admin-analytics';
import { errorMessage } from '../../../errors';
import { useMutation } from '../../../mutations';
import { useTRPC } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { controlClass } from '../../ui/fields';
import { toast } from '../../ui/Toast';
import { useInvalidate } from '../parts/use-invalidate';

// The store's time zone: where Analytics' days begin and end (README § Analytics).

export function TimeZoneForm() {
  const trpc = useTRPC();
  const saved = useQuery(trpc.admin.settings.timeZone.queryOptions()).data?.time_zone;
  const [chosen, setChosen] = useState<string | null>(null);
  const invalidate = useInvalidate(trpc.admin.settings.timeZone.queryKey(), trpc.admin.analytics.pathKey());
  const save = useMutation(
    trpc.admin.settings.saveTimeZone.mutationOptions({
      onSuccess: async () => {
        toast.success(TIME_ZONE_SAVED);
        setChosen(null);
        await invalidate();
      },
      onError: (error) => toast.error(errorMessage(error, 'Could not save the time zone')),
    }),
  );
  const value = chosen ?? saved ?? 'UTC';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ time_zone: value });
  };
  return (
    <Card title="Time Zone" description="Analytics counts each day from midnight to midnight here. Changing it recounts every day.">
      <form onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <label className="w-full text-sm font-medium text-stone-800 sm:max-w-sm">
          Store time zone
          <select
            className={`mt-1.5 ${controlClass()} pr-8`}
            value={value}
            onChange={(event) => setChosen(event.target.value)}
            disabled={!saved}
          >
            {timeZones().map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" busy={save.isPending} busyLabel="Saving..." disabled={!saved || value === saved} className="w-full sm:w-auto">
          Save Time Zone
        </Button>
      </form>
    </Card>
  );
}
