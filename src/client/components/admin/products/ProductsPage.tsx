import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { Download, Package, Pencil, Plus, Power, PowerOff, Trash2, Upload } from 'lucide-react';
import { useState, type MouseEvent } from 'react';
import { useMutation } from '../../../mutations';
import { FALLBACK_PRODUCT_IMAGE } from '../../../../shared/constants';
import { formatMoney } from '../../../../shared/money';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { ActiveBadge, Badge } from '../../ui/Badge';
import { Button, ButtonLink, iconButtonClass, textLinkClass } from '../../ui/Button';
import { saveFile } from '../../../save-file';
import { Card } from '../../ui/Card';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Select } from '../../ui/fields';
import { SearchField } from '../../ui/SearchField';
import { toast } from '../../ui/Toast';
import { KEEP_PREVIOUS_PAGE } from '../../ui/Pagination';
import { useListInAddress } from '../parts/list-in-address';
import { PageHeader } from '../parts/PageHeader';
import { RecordOptions } from '../parts/RecordOptions';
import { ListPagination, PagedListStates } from '../parts/paged-list';
import { ClickableRow, TableHead } from '../parts/table';
import { BulkActions } from './BulkActions';
import { ImportCsvDialog } from './ImportCsvDialog';
import { listInputOf } from './products-search';
import { toastError, UNEXPECTED_ERROR } from '../../../errors';
import { Swatch } from '../../ui/Swatch';

const route = getRouteApi('/admin/products/');

type ProductRow = RouterOutputs['admin']['products']['list']['items'][number];

export function ProductsPage() {
  const { input, searchField, filterBy, toPage } = useListInAddress(route, listInputOf);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.products.list.queryOptions(input, KEEP_PREVIOUS_PAGE));
  const categories = useQuery(trpc.admin.products.categoryOptions.queryOptions()).data ?? [];
  const [pendingDelete, setPendingDelete] = useState<ProductRow | null>(null);
  // Chosen rows, for the list as filtered now: another search or category starts afresh.
  const filterKey = `${input.search ?? ''}|${input.categoryId ?? ''}`;
  const [selection, setSelection] = useState<{ filterKey: string; ids: Set<string>; allMatching: boolean }>({
    filterKey,
    ids: new Set(),
    allMatching: false,
  });
  const chosen = selection.filterKey === filterKey ? selection : { filterKey, ids: new Set<string>(), allMatching: false };
  const choose = (ids: Set<string>) => setSelection({ filterKey, ids, allMatching: false });
  const clearSelection = () => choose(new Set());
  const total = list.data?.total ?? 0;
  const pageIds = list.data?.items.map((row) => row.id) ?? [];
  const wholePageChosen = pageIds.length > 0 && pageIds.every((id) => chosen.ids.has(id));
  const chosenCount = chosen.allMatching ? total : chosen.ids.size;

  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  /** The products the filters show (every product without filters), as the browser's download. */
  const exportCsv = async () => {
    setExporting(true);
    try {
      const { csv } = await queryClient.fetchQuery({
        ...trpc.admin.products.exportCsv.queryOptions({ search: input.search, categoryId: input.categoryId }),
        staleTime: 0,
      });
      saveFile(new Blob([csv], { type: 'text/csv' }), `products-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      failed(error);
    } finally {
      setExporting(false);
    }
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.products.pathKey() });
  // The server's reason (the product was deleted meanwhile, say), else a general message, never a network error's text.
  const failed = toastError(UNEXPECTED_ERROR);
  const setActive = useMutation(
    trpc.admin.products.setActive.mutationOptions({
      onSuccess: (product) => {
        toast.success(product.is_active ? 'Product activated' : 'Product deactivated');
        void refresh();
        void queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() });
      },
      onError: failed,
    }),
  );
  const remove = useMutation(
    trpc.admin.products.delete.mutationOptions({
      onSuccess: () => {
        toast.success('Product deleted');
        setPendingDelete(null);
        // The last row of a page went away: show the page before it.
        if (list.data && list.data.items.length === 1 && input.page > 1) {
          toPage(input.page - 1);
        }
        void refresh();
        void queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() });
      },
      onError: (error) => {
        setPendingDelete(null);
        failed(error);
      },
    }),
  );

  return (
    <>
      <PageHeader
        title="Products"
        subtitle="Every product in the store, newest first"
        actions={
          <>
            <Button variant="secondary" icon={Upload} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
            <Button variant="secondary" icon={Download} busy={exporting} busyLabel="Exporting..." onClick={() => void exportCsv()}>
              Export CSV
            </Button>
            <ButtonLink to="/admin/products/new" variant="accent" icon={Plus}>
              Add Product
            </ButtonLink>
          </>
        }
      />

      {importing && (
        <ImportCsvDialog
          onClose={() => setImporting(false)}
          onImported={() => {
            void refresh();
            void queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() });
          }}
        />
      )}

      <Card className="mb-4 grid grid-cols-1 gap-3 p-4 sm:grid-cols-[1fr_14rem]">
        <SearchField label="Search" {...searchField} placeholder="Search by name or description..." />
        <Select
          label="Category"
          value={input.categoryId ?? ''}
          onChange={(event) => filterBy({ categoryId: event.target.value || undefined })}
        >
          <option value="">All Categories</option>
          <RecordOptions records={categories} />
        </Select>
      </Card>

      {chosenCount > 0 && (
        <>
          {wholePageChosen && total > pageIds.length && (
            <p className="mb-2 text-sm text-stone-700">
              {chosen.allMatching ? (
                <>All {total.toLocaleString('en-US')} matching products are selected. </>
              ) : (
                <>
                  The {pageIds.length} products on this page are selected.{' '}
                  <button type="button" className={textLinkClass} onClick={() => setSelection({ ...chosen, allMatching: true })}>
                    Select all {total.toLocaleString('en-US')} matching
                  </button>{' '}
                </>
              )}
              <button type="button" className={textLinkClass} onClick={clearSelection}>
                Clear selection
              </button>
            </p>
          )}
          <BulkActions
            target={chosen.allMatching ? { matching: { search: input.search, categoryId: input.categoryId } } : { ids: [...chosen.ids] }}
            count={chosenCount}
            onDone={clearSelection}
          />
        </>
      )}

      <Card className="overflow-hidden">
        <PagedListStates
          list={list}
          noun="products"
          icon={Package}
          filtered={Boolean(input.search || input.categoryId)}
          hints={{ filtered: 'Try another search or category.', empty: 'Add your first product to get started.' }}
        >
          {(rows) => (
            <ProductTable
              rows={rows}
              busyId={setActive.isPending ? setActive.variables.id : null}
              onToggle={(row) => setActive.mutate({ id: row.id, isActive: !row.is_active })}
              onDelete={setPendingDelete}
              chosen={chosen.ids}
              onChoose={choose}
            />
          )}
        </PagedListStates>
      </Card>

      <ListPagination list={list.data} itemLabel="products" onChange={toPage} />

      {pendingDelete && (
        <ConfirmDialog
          title="Delete product?"
          message={
            <>
              Are you sure you want to delete <strong className="font-semibold text-stone-900">{pendingDelete.name}</strong> (
              {pendingDelete.sku_number})? It leaves the store at once; past orders keep their copy of its name and price. This cannot be
              undone.
            </>
          }
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={remove.isPending}
          onConfirm={() => remove.mutate({ id: pendingDelete.id })}
          onCancel={() => setPendingDelete(null)}
        />
      )}
    </>
  );
}

interface TableProps {
  rows: ProductRow[];
  chosen: ReadonlySet<string>;
  onChoose: (ids: Set<string>) => void;
  busyId: string | null;
  onToggle: (row: ProductRow) => void;
  onDelete: (row: ProductRow) => void;
}

/** The product table (md and up) and the same rows as cards on small screens. A click on a row opens its edit form. */
function ProductTable({ rows, busyId, onToggle, onDelete, chosen, onChoose }: TableProps) {
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (!next.delete(id)) next.add(id);
    onChoose(next);
  };
  const allChosen = rows.every((row) => chosen.has(row.id));
  const checkbox = (row: ProductRow) => (
    <input
      type="checkbox"
      checked={chosen.has(row.id)}
      onChange={() => toggle(row.id)}
      onClick={(event) => event.stopPropagation()}
      aria-label={`Select ${row.name}`}
      className="size-4 rounded border-stone-400 accent-accent-700"
    />
  );
  const navigate = useNavigate();
  const openRow = (id: string) => void navigate({ to: '/admin/products/$id/edit', params: { id } });
  // With Printful printing the orders, a product with a variant on offer that it cannot print is flagged.
  const trpc = useTRPC();
  const printful = useQuery(trpc.admin.fulfilment.settings.queryOptions()).data?.provider === 'printful';
  const unmapped = new Set(useQuery({ ...trpc.admin.fulfilment.unmappedProducts.queryOptions(), enabled: printful }).data ?? []);
  // Buttons and links inside a row do their own thing, not the row's.
  const stop = (event: MouseEvent) => event.stopPropagation();

  const actions = (row: ProductRow) => (
    <div className="flex items-center justify-end gap-1" onClick={stop}>
      <button
        type="button"
        className={iconButtonClass()}
        onClick={() => onToggle(row)}
        disabled={busyId === row.id}
        aria-label={`${row.is_active ? 'Deactivate' : 'Activate'} ${row.name}`}
        title={row.is_active ? 'Deactivate' : 'Activate'}
      >
        {row.is_active ? (
          <PowerOff className="size-4" aria-hidden="true" />
        ) : (
          <Power className="size-4 text-emerald-700" aria-hidden="true" />
        )}
      </button>
      <Link
        to="/admin/products/$id/edit"
        params={{ id: row.id }}
        className={iconButtonClass()}
        aria-label={`Edit ${row.name}`}
        title="Edit"
      >
        <Pencil className="size-4" aria-hidden="true" />
      </Link>
      <button
        type="button"
        className={iconButtonClass('danger-subtle')}
        onClick={() => onDelete(row)}
        aria-label={`Delete ${row.name}`}
        title="Delete"
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </button>
    </div>
  );

  const productCell = (row: ProductRow) => (
    <div className="flex min-w-0 items-center gap-3">
      <img
        src={row.image_url ?? FALLBACK_PRODUCT_IMAGE}
        alt=""
        className="size-11 shrink-0 rounded-md border border-stone-200 bg-stone-50 object-cover"
      />
      <div className="min-w-0">
        <Link
          to="/admin/products/$id/edit"
          params={{ id: row.id }}
          className="block truncate font-semibold text-stone-900 hover:underline"
          onClick={stop}
        >
          {row.name}
        </Link>
        <span
          className="mt-1 flex flex-wrap items-center gap-1"
          data-testid="product-swatches"
          role="img"
          aria-label={`Colours: ${row.colours.map((c) => c.name).join(', ')}`}
        >
          {row.colours.map((colour) => (
            <Swatch key={colour.name} hex={colour.hex} className="size-3.5" />
          ))}
        </span>
        {row.is_featured && (
          <span className="mt-0.5 inline-block">
            <Badge tone="orange">Featured</Badge>
          </span>
        )}
        {printful && unmapped.has(row.id) && (
          <span className="mt-0.5 ml-1 inline-block">
            <Badge tone="red">Not mapped</Badge>
          </span>
        )}
      </div>
    </div>
  );

  return (
    <>
      <table className="hidden w-full text-left text-sm md:table" data-testid="products-table">
        <TableHead
          className="border-b border-stone-200 bg-stone-50 text-xs font-semibold tracking-wide text-stone-600 uppercase"
          cellClass="px-4 py-3"
          columns={[
            {
              label: (
                <>
                  <span className="sr-only">Select</span>
                  <input
                    type="checkbox"
                    checked={allChosen}
                    onChange={() => onChoose(allChosen ? new Set() : new Set(rows.map((row) => row.id)))}
                    aria-label="Select all products on this page"
                    className="size-4 rounded border-stone-400 accent-accent-700"
                  />
                </>
              ),
              className: 'w-10',
            },
            'SKU',
            'Product',
            'Category',
            { label: 'Price', className: 'text-right' },
            'Status',
            { label: <span className="sr-only">Actions</span>, className: 'text-right' },
          ]}
        />
        <tbody className="divide-y divide-stone-100">
          {rows.map((row) => (
            <ClickableRow key={row.id} testId="product-row" onClick={() => openRow(row.id)}>
              <td className="px-4 py-3">{checkbox(row)}</td>
              <td className="px-4 py-3 font-mono text-xs text-stone-700">{row.sku_number}</td>
              <td className="max-w-80 px-4 py-3">{productCell(row)}</td>
              <td className="px-4 py-3 text-stone-700">{row.category_name}</td>
              <td className="px-4 py-3 text-right font-medium text-stone-900 tabular-nums">{formatMoney(row.price)}</td>
              <td className="px-4 py-3">
                <ActiveBadge active={row.is_active} />
              </td>
              <td className="px-4 py-3">{actions(row)}</td>
            </ClickableRow>
          ))}
        </tbody>
      </table>

      <ul className="divide-y divide-stone-100 md:hidden" data-testid="products-list">
        {rows.map((row) => (
          <li key={row.id} className="flex cursor-pointer gap-3 p-4" onClick={() => openRow(row.id)} data-testid="product-card">
            <div className="pt-3">{checkbox(row)}</div>
            <div className="min-w-0 flex-1">
              {productCell(row)}
              <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-700">
                <span className="font-mono text-xs">{row.sku_number}</span>
                <span>{row.category_name}</span>
                <span className="font-medium text-stone-900">{formatMoney(row.price)}</span>
                <ActiveBadge active={row.is_active} />
                <div className="ml-auto">{actions(row)}</div>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
