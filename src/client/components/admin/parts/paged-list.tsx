import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Pagination, type PageInfo } from '../../ui/Pagination';
import { EmptyState, LoadingState } from '../../ui/states';

// What the server-paged admin lists show around their rows: the loading, failed and empty states
// (Products, Subscribers, Orders), and the page numbers (those and Artwork, Contact).
//
//   <PagedListStates list={list} noun="products" icon={Package} filtered={filtered} hints={...}>
//     {(items) => <ProductTable rows={items} />}
//   </PagedListStates>
//   <ListPagination list={list.data} itemLabel="products" onChange={toPage} />

/** "Loading products...", "Products could not be loaded", "No products found" or "No products yet", else the rows. */
export function PagedListStates<Item>({
  list,
  noun,
  icon,
  filtered,
  hints,
  children,
}: {
  list: { data?: { items: Item[] }; isError: boolean };
  /** The items in the plural, lowercase, e.g. "products". */
  noun: string;
  icon: LucideIcon;
  /** A search or filter is on: nothing was found, rather than there is nothing yet. */
  filtered: boolean;
  hints: { filtered: string; empty: string };
  children: (items: Item[]) => ReactNode;
}) {
  if (!list.data) {
    const loadError = `${noun.charAt(0).toUpperCase()}${noun.slice(1)} could not be loaded`;
    return list.isError ? (
      <EmptyState title={loadError} hint="Please reload the page." icon={icon} />
    ) : (
      <LoadingState label={`Loading ${noun}...`} />
    );
  }
  if (list.data.items.length === 0) {
    return (
      <EmptyState title={filtered ? `No ${noun} found` : `No ${noun} yet`} hint={filtered ? hints.filtered : hints.empty} icon={icon} />
    );
  }
  return children(list.data.items);
}

/** The page numbers under a list; nothing while it loads or holds nothing. */
export function ListPagination({
  list,
  itemLabel,
  onChange,
}: {
  list: PageInfo | undefined;
  itemLabel: string;
  onChange: (page: number) => void;
}) {
  if (!list || list.total === 0) return null;
  return (
    <div className="mt-4">
      <Pagination list={list} itemLabel={itemLabel} onChange={onChange} />
    </div>
  );
}
