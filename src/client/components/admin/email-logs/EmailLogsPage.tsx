import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck, CircleX, Clock, Inbox, Mail, Play, RotateCcw, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useMutation } from '../../../mutations';
import type { EmailStatus } from '../../../../shared/constants';
import {
  EMAIL_LOAD_FAILED,
  EMAIL_PROCESS_FAILED,
  EMAIL_RETRY_FAILED,
  EMAIL_RETRY_SUCCESS,
  RETRYABLE_EMAIL_STATUSES,
  queueProcessedMessage,
} from '../../../../shared/schemas/admin-orders';
import { EMAIL_FILTERS, type EmailFilter } from '../../../../shared/constants';
import { formatDateTime } from '../../../../shared/dates';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Button } from '../../ui/Button';
import { cardClass } from '../../ui/Card';
import { EmptyState, LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';
import { ToggleButton } from '../../ui/ToggleButton';
import { PageHeader } from '../parts/PageHeader';
import { RowButton } from '../parts/row-actions';
import { StatTile } from '../parts/StatTile';
import { detailHeadingClass } from '../parts/Fact';

// The Email Logs screen (docs/PRODUCT.md § Screens, States and Messages): Process Queue, five stat tiles, filter buttons, and
// the 100 newest emails; a row opens its delivery attempts; failed rows offer Retry Now.

const FILTER_LABELS: Record<EmailFilter, string> = {
  all: 'All',
  sent: 'Sent',
  pending: 'Pending',
  failed: 'Failed',
  permanently_failed: 'Permanent Failures',
};

const STATUS_LOOK: Record<EmailStatus, { label: string; icon: LucideIcon; className: string }> = {
  sent: { label: 'Sent', icon: CircleCheck, className: 'text-emerald-700' },
  pending: { label: 'Pending', icon: Clock, className: 'text-amber-700' },
  failed: { label: 'Failed', icon: CircleAlert, className: 'text-accent-700' },
  permanently_failed: {
    label: 'Permanently Failed',
    icon: CircleX,
    className: 'text-red-700',
  },
};

const isRetryable = (status: EmailStatus) => (RETRYABLE_EMAIL_STATUSES as readonly EmailStatus[]).includes(status);

export function EmailLogsPage({ status, onStatusChange }: { status: EmailFilter; onStatusChange: (status: EmailFilter) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.emails.list.queryOptions({ status }, { placeholderData: (previous) => previous }));
  const [expanded, setExpanded] = useState<string | null>(null);

  useEffect(() => {
    if (list.error) toast.error(EMAIL_LOAD_FAILED);
  }, [list.error, list.errorUpdatedAt]);

  /** The list, its counts and every open attempts list are re-read after a change. */
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({
        queryKey: trpc.admin.emails.list.queryKey(),
      }),
      queryClient.invalidateQueries({
        queryKey: trpc.admin.emails.attempts.queryKey(),
      }),
    ]);

  const processQueue = useMutation(
    trpc.admin.emails.processQueue.mutationOptions({
      onSuccess: async (result) => {
        toast.success(queueProcessedMessage(result));
        await reload();
      },
      onError: () => toast.error(EMAIL_PROCESS_FAILED),
    }),
  );
  const retry = useMutation(
    trpc.admin.emails.retry.mutationOptions({
      onSuccess: async () => {
        toast.success(EMAIL_RETRY_SUCCESS);
        await reload();
      },
      onError: () => toast.error(EMAIL_RETRY_FAILED),
    }),
  );

  const emails = list.data?.emails ?? [];
  const counts = list.data?.counts;

  return (
    <div>
      <PageHeader
        title="Email Logs"
        subtitle="Monitor and manage email delivery"
        actions={
          <Button
            variant="accent"
            icon={Play}
            busy={processQueue.isPending}
            busyLabel="Processing..."
            onClick={() => processQueue.mutate()}
          >
            Process Queue
          </Button>
        }
      />

      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-5">
        <StatTile label="Total" value={counts?.total ?? '–'} icon={Inbox} testId="stat-total" />
        <StatTile label="Sent" value={counts?.sent ?? '–'} icon={CircleCheck} testId="stat-sent" />
        <StatTile label="Pending" value={counts?.pending ?? '–'} icon={Clock} testId="stat-pending" />
        <StatTile label="Failed" value={counts?.failed ?? '–'} icon={CircleAlert} testId="stat-failed" />
        <StatTile label="Permanent Failures" value={counts?.permanentlyFailed ?? '–'} icon={CircleX} testId="stat-permanently-failed" />
      </div>

      <div role="group" aria-label="Filter emails" className="mt-6 mb-4 flex flex-wrap gap-2">
        {EMAIL_FILTERS.map((value) => (
          <ToggleButton key={value} pressed={status === value} onClick={() => onStatusChange(value)}>
            {FILTER_LABELS[value]}
          </ToggleButton>
        ))}
      </div>

      <section aria-label="Emails" aria-busy={list.isFetching} className={`${cardClass} overflow-hidden`}>
        {list.isPending ? (
          <LoadingState label="Loading emails..." />
        ) : list.isError && !list.data ? (
          <EmptyState title={EMAIL_LOAD_FAILED} icon={CircleAlert} />
        ) : emails.length === 0 ? (
          <EmptyState title="No emails found" icon={Mail} />
        ) : (
          <ul className="divide-y divide-stone-200">
            {emails.map((email) => (
              <EmailItem
                key={email.id}
                email={email}
                expanded={expanded === email.id}
                onToggle={() => setExpanded((current) => (current === email.id ? null : email.id))}
                retrying={retry.isPending && retry.variables.id === email.id}
                onRetry={() => retry.mutate({ id: email.id })}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

type EmailRow = RouterOutputs['admin']['emails']['list']['emails'][number];

interface EmailItemProps {
  email: EmailRow;
  expanded: boolean;
  onToggle: () => void;
  retrying: boolean;
  onRetry: () => void;
}

function EmailItem({ email, expanded, onToggle, retrying, onRetry }: EmailItemProps) {
  const look = STATUS_LOOK[email.status];
  const Icon = look.icon;
  const panelId = useId();
  return (
    <li data-testid="email-row" data-status={email.status}>
      <div className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-start sm:px-5">
        {/* The whole summary is one button that opens or closes the attempts. */}
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls={panelId}
          className="flex min-w-0 flex-1 items-start gap-3 rounded-lg text-left focus-visible:outline-offset-4"
        >
          <Icon className={`mt-0.5 size-5 shrink-0 ${look.className}`} aria-hidden="true" />
          <span className="min-w-0 flex-1">
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className={`text-sm font-semibold ${look.className}`} data-testid="email-status">
                {look.label}
              </span>
              <span className="text-xs text-stone-600" data-testid="email-attempts">
                Attempts: {email.retry_count}/{email.max_retries}
              </span>
            </span>
            <span className="mt-1 block text-sm font-semibold break-words text-stone-900" data-testid="email-subject">
              {email.subject}
            </span>
            <span className="mt-0.5 block truncate text-sm text-stone-600">To: {email.to_email}</span>
            <span className="mt-1.5 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-stone-600">
              <span>Created: {formatDateTime(email.created_at)}</span>
              {email.sent_at && <span>Sent: {formatDateTime(email.sent_at)}</span>}
              {email.next_retry_at && <span>Next Retry: {formatDateTime(email.next_retry_at)}</span>}
            </span>
            {email.last_error && (
              <span
                className="mt-2 block rounded-md bg-red-50 px-2.5 py-1.5 text-xs break-words text-red-800"
                data-testid="email-last-error"
              >
                {email.last_error}
              </span>
            )}
          </span>
        </button>
        {isRetryable(email.status) && (
          <RowButton icon={RotateCcw} className="self-start" disabled={retrying} onClick={onRetry}>
            Retry Now
          </RowButton>
        )}
      </div>
      <div id={panelId} hidden={!expanded}>
        {expanded && <DeliveryAttempts emailId={email.id} />}
      </div>
    </li>
  );
}

function DeliveryAttempts({ emailId }: { emailId: string }) {
  const trpc = useTRPC();
  const attempts = useQuery(trpc.admin.emails.attempts.queryOptions({ id: emailId }));

  // docs/PRODUCT.md § Messages: a log load error is only logged.
  useEffect(() => {
    if (attempts.error) console.warn('Failed to load delivery attempts', attempts.error);
  }, [attempts.error]);

  return (
    <div className="border-t border-stone-100 bg-stone-50 px-4 py-4 sm:px-5 sm:pl-13">
      <h3 className={detailHeadingClass}>Delivery Attempts</h3>
      {attempts.isPending ? (
        <p className="mt-2 text-sm text-stone-600">Loading attempts...</p>
      ) : !attempts.data || attempts.data.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">No delivery attempts yet</p>
      ) : (
        <ol className="mt-2 space-y-2">
          {attempts.data.map((attempt) => {
            const success = attempt.status === 'success';
            return (
              <li
                key={attempt.id}
                data-testid="delivery-attempt"
                className="rounded-lg border border-stone-200 bg-white px-3 py-2.5 text-sm"
              >
                <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
                  <span className="font-semibold text-stone-900">Attempt #{attempt.attempt_number}</span>
                  <span className={`font-semibold capitalize ${success ? 'text-emerald-700' : 'text-red-700'}`}>{attempt.status}</span>
                  <span className="text-stone-600">Response: {attempt.response_code ?? 'N/A'}</span>
                  <span className="text-stone-600">{formatDateTime(attempt.created_at)}</span>
                </div>
                {attempt.error_message && <p className="mt-1 text-xs break-words text-red-800">{attempt.error_message}</p>}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
