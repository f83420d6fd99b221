import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, Download } from 'lucide-react';
import { formatDateTime } from '../../../../shared/dates';
import { BACK_UP_NOW, BACKUP_DOWNLOAD_PATH, BACKUP_TAKEN, BACKUPS_ON_SERVER } from '../../../../shared/schemas/admin-settings';
import { errorMessage } from '../../../errors';
import { useMutation } from '../../../mutations';
import { useTRPC } from '../../../trpc';
import { Button, buttonClass } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';

// Backups (docs/adr/0024): the embedded database's daily backups in DATA_DIR/backups, each a
// Download, and Back up now. On a PostgreSQL server the card says how that store is backed up.

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
const hourOfDay = (hour: number) => new Date(2000, 0, 1, hour).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

export function BackupsCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.backups.list.queryOptions());
  const create = useMutation(
    trpc.admin.backups.create.mutationOptions({
      onSuccess: async () => {
        toast.success(BACKUP_TAKEN);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.backups.list.queryKey() });
      },
      onError: (error) => toast.error(`Backup failed: ${errorMessage(error, 'An unexpected error occurred')}`),
    }),
  );
  const data = list.data;
  const description = data?.enabled
    ? `The whole store (database and files) is backed up every day at ${hourOfDay(data.hour)} (the server's time); the newest ${data.keep} are kept. Restore one with npm run restore.`
    : 'Copies of the whole store, to put it back with npm run restore.';

  return (
    <Card
      title="Backups"
      description={description}
      actions={
        data?.enabled && (
          <Button icon={Archive} busy={create.isPending} busyLabel="Backing up..." onClick={() => create.mutate()}>
            {BACK_UP_NOW}
          </Button>
        )
      }
    >
      {list.isPending ? (
        <LoadingState label="Loading backups..." />
      ) : !data?.enabled ? (
        <p className="rounded-lg border border-stone-200 bg-stone-50 p-3 text-sm text-stone-700">{BACKUPS_ON_SERVER}</p>
      ) : data.backups.length === 0 ? (
        <p className="text-sm text-stone-600">
          No backup yet: the first is taken within ten minutes of start-up, or now with {BACK_UP_NOW}.
        </p>
      ) : (
        <ul className="divide-y divide-stone-100 rounded-lg border border-stone-200" aria-label="Backups">
          {data.backups.map((backup) => (
            <li key={backup.name} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="backup-row">
              <div className="min-w-0">
                <p className="font-medium text-stone-900">{formatDateTime(backup.createdAt)}</p>
                <p className="truncate text-xs text-stone-600">
                  {backup.name} · {megabytes(backup.size)}
                </p>
              </div>
              <a
                href={`${BACKUP_DOWNLOAD_PATH}/${backup.name}`}
                download
                className={buttonClass({ variant: 'secondary', size: 'sm' })}
                aria-label={`Download the backup of ${formatDateTime(backup.createdAt)}`}
              >
                <Download className="size-4" aria-hidden="true" />
                Download
              </a>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
