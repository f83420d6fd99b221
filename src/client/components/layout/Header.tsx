import { useQuery } from '@tanstack/react-query';
import { Link, linkOptions, useRouterState } from '@tanstack/react-router';
import { LayoutDashboard, LogOut, Menu, Search, ShoppingBag, UserRound, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useCartCount } from '../../cart/cart';
import { useNewContactCount } from '../../session/live';
import { useMe, useSignOut } from '../../session/session';
import { storeConfig } from '../../store-config';
import { useTRPC } from '../../trpc';
import { CountBadge } from '../ui/Badge';
import { BrandMark } from '../ui/Brand';
import { HeaderSearch } from './HeaderSearch';

const MOBILE_MENU_ID = 'mobile-menu';
const MOBILE_SEARCH_ID = 'mobile-search';

const iconButton =
  'relative inline-flex size-10 items-center justify-center rounded-full text-stone-700 transition hover:bg-stone-100 hover:text-stone-900';
const desktopLink =
  'rounded-md px-3 py-2 text-sm font-medium text-stone-600 transition hover:bg-stone-100 hover:text-stone-900 data-[status=active]:text-stone-950 data-[status=active]:underline data-[status=active]:decoration-accent-600 data-[status=active]:decoration-2 data-[status=active]:underline-offset-8';
const mobileLink =
  'block rounded-lg px-3 py-3 text-base font-medium text-stone-700 hover:bg-stone-100 data-[status=active]:bg-accent-50 data-[status=active]:text-accent-800';

function useNavItems() {
  const trpc = useTRPC();
  // A failed read leaves just the fixed links (docs/PRODUCT.md § Messages: storefront errors show empty states).
  const categories = useQuery(trpc.catalog.categories.queryOptions()).data ?? [];
  return [
    { label: 'Shop', link: linkOptions({ to: '/shop' }) },
    ...categories.map((category) => ({
      label: category.name,
      link: linkOptions({ to: '/category/$slug', params: { slug: category.slug } }),
    })),
    { label: 'Subscriptions', link: linkOptions({ to: '/subscriptions' }) },
    { label: 'Contact', link: linkOptions({ to: '/contact' }) },
  ];
}

export function Header() {
  const navItems = useNavItems();
  const me = useMe().data ?? null;
  const signOut = useSignOut();
  const cartCount = useCartCount();
  const newContacts = useNewContactCount(me?.isAdmin === true);
  const newContactCount = newContacts.count;
  // Who is signed in is read once the page is up (pages are the same for everyone): the Admin link
  // waits for its count too, so it comes in once, whole, and nothing beside it moves twice.
  const showAdmin = me?.isAdmin === true && newContacts.known;
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // The menu remembers the page it was opened on, so any navigation closes it without an effect.
  const [menuOpenedOn, setMenuOpenedOn] = useState<string | null>(null);
  const menuOpen = menuOpenedOn === pathname;
  const closeMenu = () => setMenuOpenedOn(null);
  // On phones the search opens below the bar, and closes on any navigation as the menu does.
  const [searchOpenedOn, setSearchOpenedOn] = useState<string | null>(null);
  const searchOpen = searchOpenedOn === pathname;
  const menuButton = useRef<HTMLButtonElement>(null);

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
        if (event.key !== 'Escape' || !menuOpen) return;
        closeMenu();
        // The focus was in the menu, which is gone: back to the button that opens it.
        menuButton.current?.focus();
      }}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-3 sm:px-6 lg:gap-6 lg:px-8">
        <button
          ref={menuButton}
          type="button"
          className={`${iconButton} lg:hidden`}
          aria-expanded={menuOpen}
          aria-controls={MOBILE_MENU_ID}
          onClick={() => {
            setSearchOpenedOn(null);
            setMenuOpenedOn(menuOpen ? null : pathname);
          }}
        >
          {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
          <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
          {/* On phones the Admin link lives in the menu, so its count rides on the button that opens it. */}
          {showAdmin && newContactLabel && !menuOpen && (
            <span className="sm:hidden">
              <CountBadge count={newContactCount ?? 0} className="absolute -top-0.5 -right-0.5 bg-red-600 ring-2 ring-white" />
              <span className="sr-only">, {newContactLabel}</span>
            </span>
          )}
        </button>

        <Link to="/" className="flex min-w-0 items-center gap-2.5 rounded-md lg:shrink-0" onClick={closeMenu}>
          <BrandMark />
          <span className="font-display truncate text-lg font-extrabold tracking-tight text-stone-950">{storeConfig.storeName}</span>
        </Link>

        <nav aria-label="Main" className="hidden min-w-0 lg:block">
          <ul className="flex items-center gap-0.5">
            {navItems.map(({ label, link }) => (
              <li key={label}>
                <Link {...link} className={desktopLink}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        {/* Its own place after the links, so nothing that comes in later moves it. */}
        <HeaderSearch id="header-search" className="hidden w-44 shrink-0 md:block xl:w-56" />

        {/* Spans the rest of the bar, its links kept to the right: those that come in once the
            browser knows who is signed in (Admin, Sign Out) appear at the left end, moving nothing.
            Beside the full menu it keeps their room from the start, so a long menu (many
            categories) is squeezed for everyone alike, not when an admin's links come in. */}
        <div className="flex flex-1 items-center justify-end gap-0.5 whitespace-nowrap sm:gap-1 lg:min-w-[13.5rem] xl:min-w-[17rem]">
          {showAdmin && (
            <Link
              to="/admin"
              // Not on phones: the bar has no room left beside the brand and the search, cart and account
              // buttons, so the link is in the menu there (its count on the menu button).
              className="inline-flex h-9 items-center gap-1.5 rounded-full border border-stone-300 px-3 text-sm font-semibold text-stone-800 transition hover:border-stone-400 hover:bg-stone-50 max-sm:hidden sm:mr-1"
              data-testid="admin-link"
            >
              <LayoutDashboard className="size-4" aria-hidden="true" />
              {/* Icon and count only beside the full menu below xl (the links come in after the page, and must fit). */}
              <span className="lg:sr-only xl:not-sr-only">Admin</span>
              {newContactLabel && (
                <>
                  <CountBadge count={newContactCount ?? 0} testId="admin-badge" />
                  <span className="sr-only">, {newContactLabel}</span>
                </>
              )}
            </Link>
          )}
          {me && (
            <button
              type="button"
              // On phones Sign Out lives in the menu, leaving the bar room for the brand. Its word only
              // where the main links are in the menu too: beside them the bar has no room to spare.
              className={`${iconButton} max-sm:hidden sm:max-lg:w-auto sm:max-lg:gap-1.5 sm:max-lg:px-3 sm:max-lg:text-sm sm:max-lg:font-medium`}
              aria-label="Sign Out"
              onClick={handleSignOut}
              disabled={signOut.isPending}
            >
              <LogOut className="size-5 sm:max-lg:size-4" aria-hidden="true" />
              <span className="hidden sm:max-lg:inline">Sign Out</span>
            </button>
          )}
          <button
            type="button"
            className={`${iconButton} md:hidden`}
            aria-label="Search"
            aria-expanded={searchOpen}
            aria-controls={MOBILE_SEARCH_ID}
            onClick={() => {
              closeMenu();
              setSearchOpenedOn(searchOpen ? null : pathname);
            }}
          >
            <Search className="size-5" aria-hidden="true" />
          </button>
          <Link
            to={me ? '/dashboard' : '/login'}
            className={iconButton}
            aria-label={me ? 'My account' : 'Sign in'}
            data-testid="account-link"
          >
            <UserRound className="size-5" aria-hidden="true" />
          </Link>
          <Link to="/cart" className={iconButton} aria-label={cartLabel} data-testid="cart-link">
            <ShoppingBag className="size-5" aria-hidden="true" />
            {cartCount > 0 && (
              <CountBadge count={cartCount} testId="cart-count" className="absolute -top-0.5 -right-0.5 bg-accent-600 ring-2 ring-white" />
            )}
          </Link>
        </div>
      </div>

      <div id={MOBILE_SEARCH_ID} hidden={!searchOpen} className="border-t border-stone-200 bg-white px-3 py-3 sm:px-6 md:hidden">
        {searchOpen && <HeaderSearch id="mobile-search-field" autoFocus />}
      </div>

      <div id={MOBILE_MENU_ID} hidden={!menuOpen} className="border-t border-stone-200 bg-white lg:hidden">
        <nav aria-label="Mobile" className="mx-auto max-w-7xl px-3 py-3 sm:px-6">
          <ul className="flex flex-col">
            {navItems.map(({ label, link }) => (
              <li key={label}>
                <Link {...link} className={mobileLink} onClick={closeMenu}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="mt-2 flex flex-col border-t border-stone-200 pt-2">
            {showAdmin && (
              <Link to="/admin" className={`${mobileLink} flex items-center justify-between`} onClick={closeMenu}>
                Admin
                {newContactLabel && (
                  <>
                    <CountBadge count={newContactCount ?? 0} />
                    <span className="sr-only">, {newContactLabel}</span>
                  </>
                )}
              </Link>
            )}
            <Link to={me ? '/dashboard' : '/login'} className={mobileLink} onClick={closeMenu}>
              {me ? 'My Account' : 'Sign In'}
            </Link>
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
