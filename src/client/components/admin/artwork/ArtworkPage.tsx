import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { ImageOff, Pencil, Search, Trash2, Upload } from 'lucide-react';
import { useDeferredValue, useId, useState } from 'react';
import type { AppRouter } from '../../../../server/trpc/router';
import { ARTWORK_DELETE_CONFIRM, ARTWORK_DELETE_FAILED } from '../../../../shared/schemas/admin-artwork';
import { useTRPC } from '../../../trpc';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { formatDate } from '../ui/format';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, LoadingState } from '../ui/states';
import { accentButton, card, inputBase, inputOk, secondaryButton } from '../ui/styles';
import { useToast } from '../ui/Toast';
import { ArtworkFormModal, type EditedArtwork } from './ArtworkFormModal';

// The Artwork Library (SPEC §2, §5, §8): search and tag filter run on the server; cards in 1 to 4
// columns; Upload / Edit modals; delete after 'Are you sure you want to delete this artwork?'.

type ArtworkRow = inferRouterOutputs<AppRouter>['admin']['artwork']['list'][number];
type ModalState = { mode: 'closed' } | { mode: 'new' } | { mode: 'edit'; artwork: EditedArtwork };

export function ArtworkPage() {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const searchId = useId();
  const tagId = useId();
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  // Typing stays responsive; the query follows the deferred text.
  const deferredSearch = useDeferredValue(search.trim());
  const filters = { ...(deferredSearch ? { search: deferredSearch } : {}), ...(tag ? { tag } : {}) };
  const list = useQuery({ ...trpc.admin.artwork.list.queryOptions(filters), placeholderData: keepPreviousData });
  const tags = useQuery(trpc.admin.artwork.tags.queryOptions());
  const [modal, setModal] = useState<ModalState>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<ArtworkRow | null>(null);

  const remove = useMutation(
    trpc.admin.artwork.delete.mutationOptions({
      onSuccess: () => toast.success('Artwork deleted.'),
      onError: (error) => toast.error(error.message || ARTWORK_DELETE_FAILED),
      onSettled: async () => {
        setDeleting(null);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.artwork.pathKey() });
      },
    }),
  );

  const uploadButton = (
    <button type="button" className={accentButton} onClick={() => setModal({ mode: 'new' })}>
      <Upload className="size-4" aria-hidden="true" />
      Upload Artwork
    </button>
  );
  const items = list.data ?? [];
  const filtering = search.trim() !== '' || tag !== '';

  return (
    <div>
      <PageHeader title="Artwork Library" subtitle="Manage artwork for mockups and products" actions={uploadButton} />

      <div className={`${card} mb-6 flex flex-col gap-3 p-4 sm:flex-row`} role="search">
        <div className="relative flex-1">
          <label htmlFor={searchId} className="sr-only">
            Search artwork
          </label>
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400" aria-hidden="true" />
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search by name or description..."
            className={`${inputBase} ${inputOk} pl-9`}
          />
        </div>
        <div className="sm:w-56">
          <label htmlFor={tagId} className="sr-only">
            Filter by tag
          </label>
          <select id={tagId} value={tag} onChange={(event) => setTag(event.target.value)} className={`${inputBase} ${inputOk} pr-8`}>
            <option value="">All Tags</option>
            {(tags.data?.all ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.isPending ? (
        <LoadingState label="Loading artwork..." />
      ) : items.length === 0 ? (
        <div className={card}>
          {filtering ? (
            <EmptyState title="No artwork found" hint="Try adjusting your search or filters" icon={Search} />
          ) : (
            <EmptyState title="No artwork uploaded yet" hint="Upload your first artwork to get started" icon={ImageOff} action={uploadButton} />
          )}
        </div>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Artwork" aria-busy={list.isFetching}>
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

const smallButton = `${secondaryButton} h-8 flex-1 px-3 text-xs`;

function ArtworkCard({ artwork, onEdit, onDelete }: { artwork: ArtworkRow; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className={`${card} flex flex-col overflow-hidden`} data-testid="artwork-card">
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
          <button type="button" className={smallButton} onClick={onEdit} aria-label={`Edit ${artwork.name}`}>
            <Pencil className="size-3.5" aria-hidden="true" />
            Edit
          </button>
          <button
            type="button"
            className={`${smallButton} text-red-700 hover:border-red-300 hover:bg-red-50`}
            onClick={onDelete}
            aria-label={`Delete ${artwork.name}`}
          >
            <Trash2 className="size-3.5" aria-hidden="true" />
            Delete
          </button>
        </div>
      </div>
    </li>
  );
}
