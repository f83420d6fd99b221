import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight, Download, ShieldCheck, ShieldOff, Trash2, UserPlus, Users } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useMutation } from '../../../mutations';
import { formatDate } from '../../../../shared/dates';
import { CUSTOMER_FILTERS, type CustomerFilter } from '../../../../shared/constants';
import { customerDataFileName, DELETE_ACCOUNT, DOWNLOAD_DATA } from '../../../../shared/schemas/admin-people';
import { saveJson } from '../../../save-file';
import { errorMessage } from '../../../errors';
import { useMe } from '../../../session/session';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Badge } from '../../ui/Badge';
import { iconButtonClass } from '../../ui/Button';
import { cardClass } from '../../ui/Card';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import type { PageInfo } from '../../ui/Pagination';
import { SearchField } from '../../ui/SearchField';
import { EmptyState, LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';
import { ToggleButton } from '../../ui/ToggleButton';
import { KEEP_PREVIOUS_PAGE } from '../../ui/Pagination';
import { useListInAddress } from '../parts/list-in-address';
import { PageHeader } from '../parts/PageHeader';
import { RowButton, usePendingIds } from '../parts/row-actions';
import { TableHead } from '../parts/table';
import { listInputOf } from './customers-search';

// The Customers screen (docs/PRODUCT.md § Screens): registered users newest first, paged, filtered and searched on
// the server; filter buttons with counts of every user; and the actions Make Admin / Remove Admin
// / Add to Customers with the spec's messages (docs/PRODUCT.md § Messages).

const route = getRouteApi('/admin/customers');

type UserRow = RouterOutputs['admin']['customers']['list']['items'][number];

const FILTER_LABELS: Record<CustomerFilter, string> = {
  all: 'All',
  confirmed: 'Confirmed',
  unconfirmed: 'Unconfirmed',
  not_in_customers: 'Not in Customers',
};

export function CustomersPage() {
  const { input, searchField, filterBy, toPage } = useListInAddress(route, listInputOf);
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.customers.list.queryOptions(input, KEEP_PREVIOUS_PAGE));
  const myId = useMe().data?.id;
  const actions = useCustomerActions(myId);

  const loadError = list.error?.message;
  useEffect(() => {
    if (loadError) toast.error(`Failed to load users: ${loadError}`);
  }, [loadError, list.errorUpdatedAt]);

  const onFilterChange = (filter: CustomerFilter) => filterBy({ filter: filter === 'all' ? undefined : filter });

  const users = list.data?.items ?? [];
  const counts = list.data?.counts;

  return (
    <div>
      <PageHeader title="Customers" subtitle="View all registered customers" />

      <div className="mb-4 flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
        <div role="group" aria-label="Filter users" className="flex flex-wrap gap-2">
          {CUSTOMER_FILTERS.map((value) => (
            <ToggleButton key={value} pressed={input.filter === value} onClick={() => onFilterChange(value)}>
              {FILTER_LABELS[value]}
              <span className="rounded-full bg-current/10 px-1.5 py-px text-xs tabular-nums" data-testid={`count-${value}`}>
                {counts?.[value] ?? '–'}
              </span>
            </ToggleButton>
          ))}
        </div>
        <SearchField label="Search users" hideLabel {...searchField} placeholder="Search by email or name..." className="lg:w-72" />
      </div>

      <section aria-label="Users" aria-busy={list.isFetching} className={cardClass}>
        {list.isPending ? (
          <LoadingState label="Loading users..." />
        ) : users.length === 0 ? (
          <EmptyState title="No users found" hint={input.search ? 'Try another search or filter.' : undefined} icon={Users} />
        ) : (
          <>
            <UsersTable users={users} myId={myId} actions={actions} />
            <UserCards users={users} myId={myId} actions={actions} />
          </>
        )}
        {list.data && (
          <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-t border-stone-200 px-4 py-3">
            {/* The spec's footer: the rows on screen, of every registered user. */}
            <p className="text-sm text-stone-600" data-testid="users-footer">
              Showing {users.length} of {list.data.counts.all} users
            </p>
            <PageSteps list={list.data} onChange={toPage} />
          </div>
        )}
      </section>

      {actions.confirmingDeletion && (
        <ConfirmDialog
          title="Delete this account?"
          message={`The memberships of ${actions.confirmingDeletion.email} end today, their sessions end, and their name, addresses, phone and messages are erased. Their orders stay in the books as “Deleted customer”. This cannot be undone.`}
          confirmLabel={DELETE_ACCOUNT}
          busyLabel="Deleting..."
          busy={actions.isBusy(actions.confirmingDeletion.id)}
          onConfirm={() => actions.confirmDeletion()}
          onCancel={() => actions.cancelDeletion()}
        />
      )}

      {actions.confirmingSelfDemotion && (
        <ConfirmDialog
          title="Remove your own admin access?"
          message="You will lose access to the admin area as soon as this is saved."
          confirmLabel="Remove Admin"
          busyLabel="Updating..."
          busy={actions.isBusy(actions.confirmingSelfDemotion.id)}
          onConfirm={() => actions.confirmSelfDemotion()}
          onCancel={() => actions.cancelSelfDemotion()}
        />
      )}
    </div>
  );
}

/**
 * Previous and Next beside the spec's footer, which already says what is shown: the shared
 * Pagination would add a second "Showing a–b of N" line that counts differently.
 */
const stepButton = `${iconButtonClass()} border border-stone-300 bg-white`;

function PageSteps({ list: { page, pageCount }, onChange }: { list: PageInfo; onChange: (page: number) => void }) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className="flex items-center gap-2">
      <button type="button" className={stepButton} disabled={page <= 1} onClick={() => onChange(page - 1)} aria-label="Previous page">
        <ChevronLeft className="size-4" aria-hidden="true" />
      </button>
      <span className="text-sm text-stone-700 tabular-nums" data-testid="users-page">
        Page {page} of {pageCount}
      </span>
      <button type="button" className={stepButton} disabled={page >= pageCount} onClick={() => onChange(page + 1)} aria-label="Next page">
        <ChevronRight className="size-4" aria-hidden="true" />
      </button>
    </nav>
  );
}

type Actions = ReturnType<typeof useCustomerActions>;

/** The two mutations, their spec messages, and which rows are busy (several may be at once). */
function useCustomerActions(myId: string | undefined) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirmingSelfDemotion, setConfirmingSelfDemotion] = useState<UserRow | null>(null);
  const [confirmingDeletion, setConfirmingDeletion] = useState<UserRow | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const refreshList = () => queryClient.invalidateQueries({ queryKey: trpc.admin.customers.list.pathKey() });

  const setAdmin = useMutation(
    trpc.admin.customers.setAdmin.mutationOptions({
      onSuccess: async ({ userId, isAdmin }) => {
        toast.success(isAdmin ? 'User promoted to admin successfully!' : 'User removed from admin successfully!');
        setConfirmingSelfDemotion(null);
        // After demoting oneself the list is no longer ours to read; the layout leaves the admin area.
        if (userId !== myId || isAdmin) await refreshList();
      },
      onError: async (error) => {
        setConfirmingSelfDemotion(null);
        toast.error(`Failed to update admin status: ${errorMessage(error, 'Failed to update admin status')}`);
        // A refusal often means the screen was stale (another admin acted): show the current state.
        await refreshList();
      },
    }),
  );
  const addToCustomers = useMutation(
    trpc.admin.customers.addToCustomers.mutationOptions({
      onSuccess: async () => {
        toast.success('User added to customers successfully!');
        await refreshList();
      },
      onError: async (error) => {
        toast.error(`Failed to add user to customers: ${errorMessage(error, 'An unexpected error occurred')}`);
        await refreshList();
      },
    }),
  );

  const deleteAccount = useMutation(
    trpc.admin.customers.deleteAccount.mutationOptions({
      onSuccess: async ({ email }) => {
        toast.success(`The account of ${email} was deleted.`);
        setConfirmingDeletion(null);
        await refreshList();
      },
      onError: async (error) => {
        setConfirmingDeletion(null);
        toast.error(`Failed to delete the account: ${errorMessage(error, 'An unexpected error occurred')}`);
        await refreshList();
      },
    }),
  );

  // Rows with a request in flight, from the mutations.
  const pending = usePendingIds(trpc.admin.customers.pathKey(), 'userId');
  const isBusy = (id: string) => pending(id) || downloading === id;

  /** A customer's request for their data: the same JSON Download my data gives them, saved here. */
  const downloadData = async (user: UserRow) => {
    setDownloading(user.id);
    try {
      const data = await queryClient.fetchQuery({
        ...trpc.admin.customers.exportData.queryOptions({ userId: user.id }),
        staleTime: 0,
        gcTime: 0,
      });
      saveJson(data, customerDataFileName(user.email, data.exported_at.slice(0, 10)));
    } catch (error) {
      toast.error(`Failed to download the data: ${errorMessage(error, 'An unexpected error occurred')}`);
    } finally {
      setDownloading(null);
    }
  };

  return {
    isBusy,
    /** Make Admin / Remove Admin: the request carries the opposite of the current value (docs/PRODUCT.md § States). */
    toggleAdmin: (user: UserRow) => {
      const makeAdmin = !user.customer_data?.is_admin;
      // Removing one's own access is the only change that locks the clicker out: ask first.
      if (!makeAdmin && user.id === myId) setConfirmingSelfDemotion(user);
      else setAdmin.mutate({ userId: user.id, isAdmin: makeAdmin });
    },
    addToCustomers: (user: UserRow) => addToCustomers.mutate({ userId: user.id }),
    downloadData: (user: UserRow) => void downloadData(user),
    confirmingDeletion,
    askDeletion: (user: UserRow) => setConfirmingDeletion(user),
    confirmDeletion: () => {
      if (confirmingDeletion) deleteAccount.mutate({ userId: confirmingDeletion.id });
    },
    cancelDeletion: () => setConfirmingDeletion(null),
    confirmingSelfDemotion,
    confirmSelfDemotion: () => {
      if (confirmingSelfDemotion) setAdmin.mutate({ userId: confirmingSelfDemotion.id, isAdmin: false });
    },
    cancelSelfDemotion: () => setConfirmingSelfDemotion(null),
  };
}

const fullName = (user: UserRow) => user.customer_data?.full_name ?? 'N/A';

function Avatar({ user }: { user: UserRow }) {
  const initial = (user.customer_data?.full_name ?? user.email).charAt(0).toUpperCase();
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-accent-50 text-sm font-bold text-accent-800"
    >
      {initial}
    </span>
  );
}

function EmailStatus({ user }: { user: UserRow }) {
  return user.email_confirmed_at ? <Badge tone="green">Confirmed</Badge> : <Badge tone="amber">Unconfirmed</Badge>;
}

function CustomerStatus({ user }: { user: UserRow }) {
  return user.has_customer_record ? <Badge tone="blue">In Customers</Badge> : <Badge tone="stone">Not Added</Badge>;
}

function Role({ user }: { user: UserRow }) {
  if (!user.customer_data) {
    return (
      <span className="text-stone-500">
        <span aria-hidden="true">—</span>
        <span className="sr-only">No role</span>
      </span>
    );
  }
  return user.customer_data.is_admin ? <Badge tone="purple">Admin</Badge> : <Badge tone="stone">Customer</Badge>;
}

/** An address that may wrap before its @ when the table is tight. */
function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

const lastSignIn = (user: UserRow) => (user.last_sign_in_at ? formatDate(user.last_sign_in_at) : 'Never');

function RoleAction({ user, actions }: { user: UserRow; actions: Actions }) {
  const busy = actions.isBusy(user.id);
  if (!user.customer_data) {
    return (
      <RowButton icon={UserPlus} busy={busy} busyLabel="Adding..." onClick={() => actions.addToCustomers(user)}>
        Add to Customers
      </RowButton>
    );
  }
  const admin = user.customer_data.is_admin;
  // The server refuses it too: anyone can sign up with an address they do not own.
  const unconfirmed = !admin && !user.email_confirmed_at;
  return (
    <RowButton
      icon={admin ? ShieldOff : ShieldCheck}
      busy={busy}
      busyLabel="Updating..."
      disabled={unconfirmed}
      title={unconfirmed ? 'Their email address is not confirmed yet' : undefined}
      onClick={() => actions.toggleAdmin(user)}
    >
      {admin ? 'Remove Admin' : 'Make Admin'}
    </RowButton>
  );
}

/**
 * The row's actions: its role, and the two privacy requests a customer may make of the shop. In
 * the table, where room is short, the requests are icons (named for screen readers and on hover).
 */
function RowActions({ user, actions, icons = false }: { user: UserRow; actions: Actions; icons?: boolean }) {
  const busy = actions.isBusy(user.id);
  const requests = [
    { label: DOWNLOAD_DATA, icon: Download, tone: 'default' as const, run: () => actions.downloadData(user) },
    { label: DELETE_ACCOUNT, icon: Trash2, tone: 'danger-subtle' as const, run: () => actions.askDeletion(user) },
  ];
  return (
    <div className="flex flex-wrap items-center gap-2">
      <RoleAction user={user} actions={actions} />
      {requests.map(({ label, icon: Icon, tone, run }) =>
        icons ? (
          <button
            key={label}
            type="button"
            className={iconButtonClass(tone)}
            disabled={busy}
            onClick={run}
            aria-label={`${label} of ${user.email}`}
            title={label}
          >
            <Icon className="size-4" aria-hidden="true" />
          </button>
        ) : (
          <RowButton key={label} icon={Icon} disabled={busy} onClick={run} aria-label={`${label} of ${user.email}`}>
            {label}
          </RowButton>
        ),
      )}
    </div>
  );
}

function You({ user, myId }: { user: UserRow; myId: string | undefined }) {
  return user.id === myId ? <span className="ml-1.5 rounded bg-stone-100 px-1.5 py-px text-xs font-medium text-stone-600">You</span> : null;
}

interface ListProps {
  users: UserRow[];
  myId: string | undefined;
  actions: Actions;
}

const th = 'px-2 py-3 text-left text-xs font-semibold tracking-wide text-stone-600 uppercase first:pl-4 last:pr-4';
const td = 'px-2 py-3 align-middle first:pl-4 last:pr-4';

/** Wide screens: the spec's columns. */
function UsersTable({ users, myId, actions }: ListProps) {
  return (
    <div className="hidden overflow-x-auto xl:block">
      <table className="min-w-full divide-y divide-stone-200 text-sm">
        <TableHead
          className="bg-stone-50"
          cellClass={th}
          columns={['User', 'Email', 'Email Status', 'Customer Status', 'Role', 'Last Sign In', 'Actions']}
        />
        <tbody className="divide-y divide-stone-100">
          {users.map((user) => (
            <tr key={user.id} data-testid="user-row" className="hover:bg-stone-50/60">
              <td className={td}>
                <div className="flex items-center gap-3">
                  <Avatar user={user} />
                  <span className="font-medium text-stone-900">
                    {fullName(user)}
                    <You user={user} myId={myId} />
                  </span>
                </div>
              </td>
              <td className={`${td} text-stone-700`}>
                <EmailAddress email={user.email} />
              </td>
              <td className={td}>
                <EmailStatus user={user} />
              </td>
              <td className={td}>
                <CustomerStatus user={user} />
              </td>
              <td className={td}>
                <Role user={user} />
              </td>
              <td className={`${td} whitespace-nowrap text-stone-700`}>{lastSignIn(user)}</td>
              <td className={td}>
                <RowActions user={user} actions={actions} icons />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One labelled fact of a user card. */
function Fact({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-stone-500">{label}</dt>
      <dd className={className ? `mt-0.5 ${className}` : 'mt-0.5'}>{children}</dd>
    </div>
  );
}

/** Narrower screens (phones, tablets, a laptop with the sidebar): one card per user with the same facts, labelled. */
function UserCards({ users, myId, actions }: ListProps) {
  return (
    <ul className="divide-y divide-stone-100 sm:grid sm:grid-cols-2 sm:divide-y-0 xl:hidden">
      {users.map((user) => (
        <li key={user.id} data-testid="user-card" className="p-4 sm:border-b sm:border-stone-100 sm:odd:border-r">
          <div className="flex items-start gap-3">
            <Avatar user={user} />
            <div className="min-w-0 flex-1">
              <p className="font-medium text-stone-900">
                {fullName(user)}
                <You user={user} myId={myId} />
              </p>
              <p className="truncate text-sm text-stone-600">{user.email}</p>
            </div>
          </div>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
            <Fact label="Email Status">
              <EmailStatus user={user} />
            </Fact>
            <Fact label="Customer Status">
              <CustomerStatus user={user} />
            </Fact>
            <Fact label="Role">
              <Role user={user} />
            </Fact>
            <Fact label="Last Sign In" className="text-stone-700">
              {lastSignIn(user)}
            </Fact>
          </dl>
          <div className="mt-3">
            <RowActions user={user} actions={actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}
