import { useQuery } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { LayoutDashboard, LogOut, Menu, ShoppingBag, UserRound, X } from 'lucide-react';
import { useState } from 'react';
import { useCartCount } from '../../cart/cart';
import { useLiveNewContactCount } from '../../session/live';
import { useMe, useSignOut } from '../../session/session';
import { storeConfig } from '../../store-config';
import { useTRPC } from '../../trpc';
import { BrandMark } from '../ui/Brand';
import { StoreLink } from '../ui/StoreLink';

interface NavItem {
  to: string;
  label: string;
}

const MOBILE_MENU_ID = 'mobile-menu';

const iconButton =
  'relative inline-flex size-10 items-center justify-center rounded-full text-stone-700 transition hover:bg-stone-100 hover:text-stone-900';
const desktopLink =
  'rounded-md px-3 py-2 text-sm font-medium text-stone-600 transition hover:bg-stone-100 hover:text-stone-900 data-[status=active]:text-stone-950 data-[status=active]:underline data-[status=active]:decoration-accent-600 data-[status=active]:decoration-2 data-[status=active]:underline-offset-8';
const mobileLink =
  'block rounded-lg px-3 py-3 text-base font-medium text-stone-700 hover:bg-stone-100 data-[status=active]:bg-accent-50 data-[status=active]:text-accent-800';

function useNavItems(): NavItem[] {
  const trpc = useTRPC();
  // A failed read leaves just the fixed links (SPEC §8: storefront errors show empty states).
  const categories = useQuery(trpc.catalog.categories.queryOptions()).data ?? [];
  return [
    { to: '/shop', label: 'Shop' },
    ...categories.map((category) => ({ to: `/category/${encodeURIComponent(category.slug)}`, label: category.name })),
    { to: '/subscriptions', label: 'Subscriptions' },
    { to: '/contact', label: 'Contact' },
  ];
}

export function Header() {
  const navItems = useNavItems();
  const me = useMe().data ?? null;
  const signOut = useSignOut();
  const cartCount = useCartCount();
  const newContactCount = useLiveNewContactCount(me?.isAdmin === true);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // The menu remembers the page it was opened on, so any navigation closes it without an effect.
  const [menuOpenedOn, setMenuOpenedOn] = useState<string | null>(null);
  const menuOpen = menuOpenedOn === pathname;
  const closeMenu = () => setMenuOpenedOn(null);

  const handleSignOut = () => {
    closeMenu();
    signOut.mutate();
  };

  const cartLabel = cartCount === 1 ? 'Cart, 1 item' : `Cart, ${cartCount} items`;
  const newContactLabel =
    newContactCount === undefined || newContactCount === 0
      ? undefined
      : `${newContactCount} new contact ${newContactCount === 1 ? 'submission' : 'submissions'}`;

  return (
    <header
      className="sticky top-0 z-40 border-b border-stone-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && menuOpen) closeMenu();
      }}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-3 sm:px-6 lg:gap-6 lg:px-8">
        <button
          type="button"
          className={`${iconButton} lg:hidden`}
          aria-expanded={menuOpen}
          aria-controls={MOBILE_MENU_ID}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpenedOn(menuOpen ? null : pathname)}
        >
          {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
        </button>

        <StoreLink to="/" className="flex min-w-0 items-center gap-2.5 rounded-md" onClick={closeMenu}>
          <BrandMark />
          <span className="font-display truncate text-lg font-extrabold tracking-tight text-stone-950">{storeConfig.storeName}</span>
        </StoreLink>

        <nav aria-label="Main" className="hidden min-w-0 flex-1 lg:block">
          <ul className="flex items-center gap-0.5">
            {navItems.map((item) => (
              <li key={item.to}>
                <StoreLink to={item.to} className={desktopLink}>
                  {item.label}
                </StoreLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1">
          {me?.isAdmin && (
            <StoreLink
              to="/admin"
              className="inline-flex h-9 items-center gap-1.5 rounded-full border border-stone-300 px-2.5 text-sm font-semibold text-stone-800 transition hover:border-stone-400 hover:bg-stone-50 sm:mr-1 sm:px-3"
              data-testid="admin-link"
            >
              <LayoutDashboard className="size-4" aria-hidden="true" />
              {/* Icon and count only on phones, where the brand needs the room. */}
              <span className="sr-only sm:not-sr-only">Admin</span>
              {newContactLabel && (
                <>
                  <CountBadge count={newContactCount ?? 0} testId="admin-badge" className="bg-red-600" />
                  <span className="sr-only">, {newContactLabel}</span>
                </>
              )}
            </StoreLink>
          )}
          <StoreLink to={me ? '/dashboard' : '/login'} className={iconButton} aria-label={me ? 'My account' : 'Sign in'} data-testid="account-link">
            <UserRound className="size-5" aria-hidden="true" />
          </StoreLink>
          {me && (
            <button
              type="button"
              // On phones Sign Out lives in the menu, leaving the bar room for the brand and the admin count.
              className={`${iconButton} max-sm:hidden sm:w-auto sm:gap-1.5 sm:rounded-full sm:px-3 sm:text-sm sm:font-medium`}
              aria-label="Sign Out"
              onClick={handleSignOut}
              disabled={signOut.isPending}
            >
              <LogOut className="size-5 sm:size-4" aria-hidden="true" />
              <span className="hidden sm:inline">Sign Out</span>
            </button>
          )}
          <StoreLink to="/cart" className={iconButton} aria-label={cartLabel} data-testid="cart-link">
            <ShoppingBag className="size-5" aria-hidden="true" />
            {cartCount > 0 && (
              <span
                aria-hidden="true"
                data-testid="cart-count"
                className="absolute -top-0.5 -right-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-accent-600 px-1 text-[11px] leading-none font-bold text-white ring-2 ring-white"
              >
                {cartCount > 99 ? '99+' : cartCount}
              </span>
            )}
          </StoreLink>
        </div>
      </div>

      <div id={MOBILE_MENU_ID} hidden={!menuOpen} className="border-t border-stone-200 bg-white lg:hidden">
        <nav aria-label="Mobile" className="mx-auto max-w-7xl px-3 py-3 sm:px-6">
          <ul className="flex flex-col">
            {navItems.map((item) => (
              <li key={item.to}>
                <StoreLink to={item.to} className={mobileLink} onClick={closeMenu}>
                  {item.label}
                </StoreLink>
              </li>
            ))}
          </ul>
          <div className="mt-2 flex flex-col border-t border-stone-200 pt-2">
            {me?.isAdmin && (
              <StoreLink to="/admin" className={`${mobileLink} flex items-center justify-between`} onClick={closeMenu}>
                Admin
                {newContactLabel && (
                  <>
                    <CountBadge count={newContactCount ?? 0} className="bg-red-600" />
                    <span className="sr-only">, {newContactLabel}</span>
                  </>
                )}
              </StoreLink>
            )}
            <StoreLink to={me ? '/dashboard' : '/login'} className={mobileLink} onClick={closeMenu}>
              {me ? 'My Account' : 'Sign In'}
            </StoreLink>
            {me && (
              <button type="button" className={`${mobileLink} text-left`} onClick={handleSignOut} disabled={signOut.isPending}>
                Sign Out
              </button>
            )}
          </div>
        </nav>
      </div>
    </header>
  );
}

/** A small round count; the link around it says the number in words for screen readers. */
function CountBadge({ count, className, testId }: { count: number; className: string; testId?: string }) {
  return (
    <span
      aria-hidden="true"
      data-testid={testId}
      className={`inline-flex h-5 min-w-5 items-center justify-center rounded-full px-1.5 text-[11px] leading-none font-bold text-white ${className}`}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
