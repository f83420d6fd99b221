import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { ImageOff, Pencil, Search, Trash2, Upload } from 'lucide-react';
import { useState } from 'react';
import { useMutation } from '../../../mutations';
import { formatDate } from '../../../../shared/dates';
import { ARTWORK_DELETE_CONFIRM, ARTWORK_DELETE_FAILED } from '../../../../shared/schemas/admin-artwork';
import { toastError } from '../../../errors';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card, cardClass } from '../../ui/Card';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Select } from '../../ui/fields';
import { SearchField } from '../../ui/SearchField';
import { EmptyState, LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';
import { ListPagination } from '../parts/paged-list';
import { KEEP_PREVIOUS_PAGE } from '../../ui/Pagination';
import { useListInAddress } from '../parts/list-in-address';
import { PageHeader } from '../parts/PageHeader';
import { ArtworkFormModal, type EditedArtwork } from './ArtworkFormModal';
import { listInputOf } from './artwork-search';

// The Artwork Library (docs/PRODUCT.md § Screens, Validation and Messages): search, tag filter and paging run on the server and live
// in the address; cards in 1 to 4 columns; Upload / Edit modals; delete after 'Are you sure you
// want to delete this artwork?'. The tag dropdown and popular tags come from every artwork's tags.

const route = getRouteApi('/admin/artwork');

type ArtworkRow = RouterOutputs['admin']['artwork']['list']['items'][number];
type ModalState = { mode: 'closed' } | { mode: 'new' } | { mode: 'edit'; artwork: EditedArtwork };

export function ArtworkPage() {
  const { input, searchField, filterBy, toPage } = useListInAddress(route, listInputOf);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.artwork.list.queryOptions(input, KEEP_PREVIOUS_PAGE));
  const tags = useQuery(trpc.admin.artwork.tags.queryOptions());
  const [modal, setModal] = useState<ModalState>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<ArtworkRow | null>(null);

  const remove = useMutation(
    trpc.admin.artwork.delete.mutationOptions({
      onSuccess: () => toast.success('Artwork deleted.'),
      onError: toastError(ARTWORK_DELETE_FAILED),
      onSettled: async () => {
        setDeleting(null);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.artwork.pathKey() });
      },
    }),
  );

  const uploadButton = (
    <Button variant="accent" icon={Upload} onClick={() => setModal({ mode: 'new' })}>
      Upload Artwork
    </Button>
  );

  const items = list.data?.items ?? [];
  const filtering = Boolean(input.search || input.tag);

  return (
    <div>
      <PageHeader title="Artwork Library" subtitle="Manage artwork for mockups and products" actions={uploadButton} />

      <Card className="mb-6 flex flex-col gap-3 p-4 sm:flex-row sm:items-end" role="search">
        <SearchField label="Search artwork" hideLabel {...searchField} placeholder="Search by name or description..." className="flex-1" />
        <Select
          label="Filter by tag"
          value={input.tag ?? ''}
          onChange={(event) => filterBy({ tag: event.target.value || undefined })}
          hideLabel
          className="sm:w-56"
        >
          <option value="">All Tags</option>
          {(tags.data?.all ?? []).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </Card>

      {list.isPending ? (
        <LoadingState label="Loading artwork..." />
      ) : items.length === 0 ? (
        <Card>
          {filtering ? (
            <EmptyState title="No artwork found" hint="Try adjusting your search or filters" icon={Search} />
          ) : (
            <EmptyState
              title="No artwork uploaded yet"
              hint="Upload your first artwork to get started"
              icon={ImageOff}
              action={uploadButton}
            />
          )}
        </Card>
      ) : (
        <ul
          className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
          aria-label="Artwork"
          aria-busy={list.isFetching}
        >
          {items.map((artwork) => (
            <ArtworkCard
              key={artwork.id}
              artwork={artwork}
              onEdit={() => setModal({ mode: 'edit', artwork })}
              onDelete={() => setDeleting(artwork)}
            />
          ))}
        </ul>
      )}

      <ListPagination list={list.data} itemLabel="artwork" onChange={toPage} />

      {modal.mode !== 'closed' && (
        <ArtworkFormModal
          editing={modal.mode === 'edit' ? modal.artwork : null}
          popularTags={tags.data?.popular ?? []}
          onClose={() => setModal({ mode: 'closed' })}
        />
      )}

      {deleting && (
        <ConfirmDialog
          title="Delete artwork?"
          message={ARTWORK_DELETE_CONFIRM}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={remove.isPending}
          onConfirm={() => remove.mutate({ id: deleting.id })}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

function ArtworkCard({ artwork, onEdit, onDelete }: { artwork: ArtworkRow; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className={`${cardClass} flex flex-col overflow-hidden`} data-testid="artwork-card">
      {/* A checkerboard shows transparent artwork as transparent. */}
      <div className="aspect-square bg-[conic-gradient(#f5f5f4_25%,#fff_0_50%,#f5f5f4_0_75%,#fff_0)] bg-[length:20px_20px] p-4">
        <img src={artwork.artwork_url} alt={artwork.name} loading="lazy" className="size-full object-contain" />
      </div>
      <div className="flex flex-1 flex-col border-t border-stone-200 p-4">
        <h2 className="font-display text-base font-bold break-words text-stone-950">{artwork.name}</h2>
        {artwork.description && <p className="mt-1 line-clamp-3 text-sm text-stone-600">{artwork.description}</p>}
        {artwork.tags && artwork.tags.length > 0 && (
          <ul className="mt-2 flex flex-wrap gap-1" aria-label={`Tags of ${artwork.name}`}>
            {artwork.tags.map((tag) => (
              <li key={tag} className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">
                {tag}
              </li>
            ))}
          </ul>
        )}
        <p className="mt-auto pt-3 text-xs text-stone-600">Added {formatDate(artwork.created_at)}</p>
        <div className="mt-3 flex gap-2">
          <Button variant="secondary" size="sm" icon={Pencil} className="flex-1" onClick={onEdit} aria-label={`Edit ${artwork.name}`}>
            Edit
          </Button>
          <Button
            variant="secondary-danger"
            size="sm"
            icon={Trash2}
            className="flex-1"
            onClick={onDelete}
            aria-label={`Delete ${artwork.name}`}
          >
            Delete
          </Button>
        </div>
      </div>
    </li>
  );
}
