import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { CheckCheck, Eye, Inbox, Mail, MailOpen, MessageSquare } from 'lucide-react';
import { useEffect, useRef, useState, type Ref } from 'react';
import { useMutation } from '../../../mutations';
import { CONTACT_STATUSES, type ContactStatus, CONTACT_FILTERS, type ContactFilter } from '../../../../shared/constants';
import { formatDateTime } from '../../../../shared/dates';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { ContactStatusBadge } from '../../status-badges';
import { textLinkClass } from '../../ui/Button';
import { cardClass } from '../../ui/Card';
import { EmptyState, LoadingState } from '../../ui/states';
import { ToggleButton } from '../../ui/ToggleButton';
import { EnumSelect } from '../parts/EnumSelect';
import { KEEP_PREVIOUS_PAGE } from '../../ui/Pagination';
import { PageHeader } from '../parts/PageHeader';
import { ListPagination } from '../parts/paged-list';
import { StatTile } from '../parts/StatTile';
import { listInputOf } from './contact-search';
import { detailHeadingClass } from '../parts/Fact';

// The contact inbox (docs/PRODUCT.md § Screens and States): stat tiles of the whole inbox, a status filter, one page of the
// list (paged on the server) on the left and the opened submission on the right. Opening a new
// submission marks it read (on the server); load and update errors are only logged (docs/PRODUCT.md § Messages), and
// a failed update changes nothing on screen.

type ListOutput = RouterOutputs['admin']['contact']['list'];
type Submission = ListOutput['items'][number];

const route = getRouteApi('/admin/contact');

const FILTER_LABELS: Record<ContactFilter, string> = { all: 'All Submissions', new: 'New', read: 'Read', resolved: 'Resolved' };
const STATUS_LABELS: Record<ContactStatus, string> = { new: 'New', read: 'Read', resolved: 'Resolved' };

export function ContactPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = listInputOf(search);
  const list = useQuery(trpc.admin.contact.list.queryOptions(input, KEEP_PREVIOUS_PAGE));
  const [selected, setSelected] = useState<Submission | null>(null);
  const detailRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (list.error) console.error('Failed to load contact submissions', list.error);
  }, [list.error]);

  /** Puts the server's answer into every cached list and the detail panel, then re-reads the lists. */
  const applyChange = (submission: Submission) => {
    queryClient.setQueriesData<ListOutput>({ queryKey: trpc.admin.contact.list.queryKey() }, (old) =>
      old ? { ...old, items: old.items.map((s) => (s.id === submission.id ? submission : s)) } : old,
    );
    setSelected((current) => (current?.id === submission.id ? submission : current));
    void queryClient.invalidateQueries({ queryKey: trpc.admin.contact.list.queryKey() });
  };

  const open = useMutation(
    trpc.admin.contact.open.mutationOptions({
      onSuccess: applyChange,
      onError: (error) => console.error('Failed to open the contact submission', error),
    }),
  );
  const setStatus = useMutation(
    trpc.admin.contact.setStatus.mutationOptions({
      onSuccess: applyChange,
      onError: (error) => console.error('Failed to update the contact submission', error),
    }),
  );

  const select = (submission: Submission) => {
    setSelected(submission);
    open.mutate({ id: submission.id });
    // On narrow screens the panel is below the list: bring it into view.
    if (!window.matchMedia('(min-width: 1024px)').matches) {
      requestAnimationFrame(() => {
        detailRef.current?.focus({ preventScroll: true });
        detailRef.current?.scrollIntoView({ block: 'start' });
      });
    }
  };

  // A new filter starts again on its first page.
  const onStatusChange = (status: ContactFilter) =>
    void navigate({ search: { status: status === 'all' ? undefined : status }, resetScroll: false });
  const toPage = (page: number) =>
    void navigate({ search: (prev) => ({ ...prev, page: page === 1 ? undefined : page }), resetScroll: false });

  const submissions = list.data?.items ?? [];
  const counts = list.data?.counts;
  // The list holds the freshest copy (live updates); the panel keeps a submission the filter hides.
  const shown = selected ? (submissions.find((s) => s.id === selected.id) ?? selected) : null;

  return (
    <div>
      <PageHeader title="Contact Submissions" subtitle="Messages sent through the contact form" />

      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatTile label="Total" value={counts?.total ?? '–'} icon={Inbox} testId="stat-total" />
        <StatTile label="New" value={counts?.new ?? '–'} icon={Mail} testId="stat-new" />
        <StatTile label="Read" value={counts?.read ?? '–'} icon={MailOpen} testId="stat-read" />
        <StatTile label="Resolved" value={counts?.resolved ?? '–'} icon={CheckCheck} testId="stat-resolved" />
      </div>

      {/* The pages sit beside the filter, as in a mail client: the list column is too narrow for them. */}
      <div className="mt-6 flex flex-col gap-x-6 lg:flex-row lg:items-end lg:justify-between">
        <EnumSelect
          label="Status"
          className="w-full sm:w-64"
          values={CONTACT_FILTERS}
          value={input.status}
          optionLabel={(value) => FILTER_LABELS[value]}
          onChange={onStatusChange}
        />
        <ListPagination list={list.data} itemLabel="submissions" onChange={toPage} />
      </div>

      <div className="mt-4 grid gap-6 lg:grid-cols-5">
        <section aria-label="Submissions" aria-busy={list.isFetching} className={`${cardClass} overflow-hidden lg:col-span-2`}>
          {list.isPending ? (
            <LoadingState label="Loading submissions..." />
          ) : submissions.length === 0 ? (
            <EmptyState title="No submissions found" icon={MessageSquare} />
          ) : (
            <ul className="divide-y divide-stone-100 lg:max-h-[70dvh] lg:overflow-y-auto">
              {submissions.map((submission) => (
                <li key={submission.id}>
                  <SubmissionItem submission={submission} current={submission.id === shown?.id} onSelect={() => select(submission)} />
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-label="Submission details" className={`${cardClass} lg:col-span-3`} data-testid="submission-detail">
          {shown ? (
            <SubmissionDetail
              submission={shown}
              headingRef={detailRef}
              busy={setStatus.isPending}
              onSetStatus={(next) => setStatus.mutate({ id: shown.id, status: next })}
            />
          ) : (
            <EmptyState title="Select a submission to view details" icon={Eye} />
          )}
        </section>
      </div>
    </div>
  );
}

function SubmissionItem({ submission, current, onSelect }: { submission: Submission; current: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={current || undefined}
      data-testid="submission-item"
      className={`block w-full px-4 py-3.5 text-left transition hover:bg-stone-50 focus-visible:-outline-offset-2 ${
        current ? 'bg-accent-50/70 shadow-[inset_3px_0_0_var(--color-accent-600)]' : ''
      }`}
    >
      <span className="flex items-center justify-between gap-3">
        <span className={`truncate text-sm text-stone-900 ${submission.status === 'new' ? 'font-bold' : 'font-semibold'}`}>
          {submission.name}
        </span>
        <ContactStatusBadge status={submission.status} testId="status-badge" />
      </span>
      <span className="mt-0.5 block truncate text-xs text-stone-600">{submission.email}</span>
      <span className="mt-1.5 block truncate text-sm font-medium text-stone-800">{submission.subject}</span>
      <span className="mt-0.5 line-clamp-2 text-sm text-stone-600">{submission.message}</span>
      <span className="mt-1.5 block text-xs text-stone-500">{formatDateTime(submission.created_at)}</span>
    </button>
  );
}

interface DetailProps {
  submission: Submission;
  headingRef: Ref<HTMLHeadingElement>;
  busy: boolean;
  onSetStatus: (status: ContactStatus) => void;
}

function SubmissionDetail({ submission, headingRef, busy, onSetStatus }: DetailProps) {
  return (
    <article className="p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2
          ref={headingRef}
          tabIndex={-1}
          className="font-display min-w-0 scroll-mt-36 text-xl font-bold tracking-tight break-words text-stone-950 focus:outline-none"
        >
          {submission.subject}
        </h2>
        <ContactStatusBadge status={submission.status} testId="status-badge" />
      </div>
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs font-medium text-stone-500">Name</dt>
          <dd className="mt-0.5 font-medium text-stone-900">{submission.name}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium text-stone-500">Email</dt>
          <dd className="mt-0.5 truncate">
            <a href={`mailto:${submission.email}`} className={textLinkClass}>
              {submission.email}
            </a>
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-stone-500">Received</dt>
          <dd className="mt-0.5 text-stone-800">{formatDateTime(submission.created_at)}</dd>
        </div>
      </dl>

      <h3 className={`mt-6 ${detailHeadingClass}`}>Message</h3>
      <p
        className="mt-2 rounded-lg bg-stone-50 p-4 text-sm leading-relaxed break-words whitespace-pre-wrap text-stone-800"
        data-testid="submission-message"
      >
        {submission.message}
      </p>

      <h3 id="update-status-label" className={`mt-6 ${detailHeadingClass}`}>
        Update Status
      </h3>
      <div role="group" aria-labelledby="update-status-label" className="mt-2 flex flex-wrap gap-2">
        {CONTACT_STATUSES.map((value) => (
          <ToggleButton key={value} pill={false} pressed={submission.status === value} disabled={busy} onClick={() => onSetStatus(value)}>
            {STATUS_LABELS[value]}
          </ToggleButton>
        ))}
      </div>
    </article>
  );
}
