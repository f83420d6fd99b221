import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useRouterState } from '@tanstack/react-router';
import { LogOut, Menu, Store, X } from 'lucide-react';
import { useState } from 'react';
import { useMe, useSignOut } from '../../../session/session';
import { useTRPC } from '../../../trpc';
import { CountBadge } from '../../ui/Badge';
import { buttonClass } from '../../ui/Button';
import { LoadingState } from '../../ui/states';
import { ADMIN_NAV_ITEMS } from './nav-items';

// The frame of every /admin screen: a sidebar (a collapsible panel below the lg breakpoint) with
// every admin screen, Back to Store and Sign Out, around the screen itself.

const NAV_ID = 'admin-nav-panel';

const navLink =
  'group flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-stone-700 transition hover:bg-stone-200/60 hover:text-stone-950 data-[status=active]:bg-stone-900 data-[status=active]:text-white';

export function AdminLayout() {
  const me = useMe().data;
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // The panel remembers the page it was opened on, so any navigation closes it.
  const [panelOpenedOn, setPanelOpenedOn] = useState<string | null>(null);
  const panelOpen = panelOpenedOn === pathname;

  // beforeLoad let only admins in; this covers a sign-out in another tab or a demotion while here.
  if (me === null || me?.isAdmin === false) return <Navigate to="/" replace />;
  if (me === undefined) return <LoadingState label="Loading..." />;

  const current = ADMIN_NAV_ITEMS.find((item) =>
    item.exact ? pathname === item.to : pathname.startsWith(item.to) && item.to !== '/admin',
  );

  return (
    <div className="flex min-h-full flex-1 bg-stone-50" data-testid="admin-layout">
      <aside className="hidden w-60 shrink-0 border-r border-stone-200 bg-stone-100/70 lg:block">
        <div className="sticky top-16 flex h-[calc(100dvh-4rem)] flex-col overflow-y-auto px-3 py-5">
          <SidebarContent />
        </div>
      </aside>

      <div className="min-w-0 flex-1">
        <div
          className="sticky top-16 z-30 flex items-center gap-3 border-b border-stone-200 bg-white/95 px-4 py-2 backdrop-blur lg:hidden"
          onKeyDown={(event) => {
            if (event.key === 'Escape' && panelOpen) setPanelOpenedOn(null);
          }}
        >
          <button
            type="button"
            className={buttonClass({ variant: 'secondary', size: 'sm' })}
            aria-expanded={panelOpen}
            aria-controls={NAV_ID}
            onClick={() => setPanelOpenedOn(panelOpen ? null : pathname)}
          >
            {panelOpen ? <X className="size-4" aria-hidden="true" /> : <Menu className="size-4" aria-hidden="true" />}
            Admin menu
          </button>
          {current && <span className="truncate text-sm font-medium text-stone-600">{current.label}</span>}
          <div
            id={NAV_ID}
            hidden={!panelOpen}
            className="absolute inset-x-0 top-full max-h-[calc(100dvh-8rem)] overflow-y-auto border-b border-stone-200 bg-stone-50 px-3 py-3 shadow-lg"
          >
            <SidebarContent />
          </div>
        </div>
        <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

function SidebarContent() {
  const trpc = useTRPC();
  const signOut = useSignOut();
  // Kept current by the live stream (session/live.tsx writes this query's cache).
  const newContacts = useQuery(trpc.admin.contact.newCount.queryOptions()).data ?? 0;
  return (
    <>
      <p className="px-3 text-xs font-semibold tracking-widest text-stone-600 uppercase">Admin</p>
      <nav aria-label="Admin" className="mt-2 flex-1">
        <ul className="space-y-0.5">
          {ADMIN_NAV_ITEMS.map(({ to, label, icon: Icon, exact }) => (
            <li key={to}>
              <Link to={to} className={navLink} activeOptions={{ exact: exact ?? false }}>
                <Icon className="size-4.5 shrink-0 text-stone-500 group-data-[status=active]:text-white" aria-hidden="true" />
                <span className="flex-1">{label}</span>
                {to === '/admin/contact' && newContacts > 0 && (
                  <>
                    <CountBadge count={newContacts} />
                    <span className="sr-only">, {newContacts} new</span>
                  </>
                )}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-4 space-y-0.5 border-t border-stone-200 pt-4">
        <Link to="/" className={navLink} activeOptions={{ exact: true }}>
          <Store className="size-4.5 shrink-0 text-stone-500" aria-hidden="true" />
          Back to Store
        </Link>
        <button type="button" className={`${navLink} w-full`} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          <LogOut className="size-4.5 shrink-0 text-stone-500" aria-hidden="true" />
          Sign Out
        </button>
      </div>
    </>
  );
}
