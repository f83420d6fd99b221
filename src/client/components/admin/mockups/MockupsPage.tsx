import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Save, Shirt } from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useMutation } from '../../../mutations';
import type { MockupSide } from '../../../../shared/constants';
import { dpiLevel, effectiveDpi, normalizePosition, type ArtPosition } from '../../../../shared/placement';
import { FRONT_MOCKUP_REQUIRED, MOCKUP_PRODUCTS_SHOWN, MOCKUP_SAVED, MOCKUP_SAVE_FAILED } from '../../../../shared/schemas/admin-mockups';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { cardClass } from '../../ui/Card';
import { Select } from '../../ui/fields';
import { SearchField } from '../../ui/SearchField';
import { EmptyState, LoadingState } from '../../ui/states';
import { toast } from '../../ui/Toast';
import { PageHeader } from '../parts/PageHeader';
import { MockupPreview } from './MockupPreview';
import { PlacementControls } from './PlacementControls';
import { useImageSize } from './useImageSize';

// The mockup generator (docs/PRODUCT.md § Screens and States): 1 select product, 2 choose template, 3 position the artwork
// and save each side, 4 review, choose the default side and save to product. The preview uses
// src/shared/placement.ts; saving renders the PNGs on the server from the same placement.

type Outputs = RouterOutputs['admin']['mockups'];
type ProductRow = Outputs['products']['products'][number];
type TemplateRow = Outputs['templates'][number];

const SIDE_LABELS: Record<MockupSide, string> = { front: 'Front', back: 'Back' };

export function MockupsPage() {
  const trpc = useTRPC();
  const [search, setSearch] = useState('');
  // The last list stays while the next search loads, so the select does not flash empty.
  const products = useQuery({ ...trpc.admin.mockups.products.queryOptions({ search }), placeholderData: keepPreviousData });
  const templates = useQuery(trpc.admin.mockups.templates.queryOptions());
  // The chosen product as listed when chosen: a later search may no longer list it.
  const [chosen, setChosen] = useState<ProductRow | null>(null);
  const listed = products.data?.products ?? [];
  const product = listed.find((row) => row.id === chosen?.id) ?? chosen;
  // The last save's colour renders, followed after the form resets, and its contrast warnings.
  const [lastSave, setLastSave] = useState<LastSave | null>(null);

  return (
    <div>
      <PageHeader title="Mockup Generator" subtitle="Place product artwork on a t-shirt template and save the mockups to the product" />
      {products.isPending || templates.isPending ? (
        <LoadingState label="Loading products..." />
      ) : (
        <div className="space-y-6">
          {lastSave && <ColourRenderStatus save={lastSave} />}
          <Step number={1} title="Select product" done={product !== null}>
            <SearchField
              label="Find a product"
              value={search}
              onSearch={setSearch}
              placeholder="Search by name or SKU..."
              className="mb-4 max-w-xl"
            />
            <Select
              label="Product"
              value={product?.id ?? ''}
              onChange={(event) => setChosen(listed.find((row) => row.id === event.target.value) ?? null)}
              className="max-w-xl"
            >
              <option value="">Choose a product...</option>
              {product && !listed.some((row) => row.id === product.id) && <option value={product.id}>{productLabel(product)}</option>}
              {listed.map((row) => (
                <option key={row.id} value={row.id}>
                  {productLabel(row)}
                </option>
              ))}
            </Select>
            {products.data?.more && (
              <p className="mt-1.5 text-sm text-stone-600">
                Showing the first {MOCKUP_PRODUCTS_SHOWN} products by name. Search to find the others.
              </p>
            )}
            {products.data && listed.length === 0 && <p className="mt-1.5 text-sm text-stone-600">No products match your search.</p>}
            {product && <ProductSummary product={product} />}
          </Step>
          {/* Keyed by product: choosing another product starts the later steps afresh. */}
          {product && (
            <ProductGenerator
              key={product.id}
              product={product}
              templates={templates.data ?? []}
              onSaved={(warnings) => {
                if (warnings) setLastSave({ productId: product.id, name: product.name, warnings });
                setChosen(null);
              }}
            />
          )}
        </div>
      )}
    </div>
  );
}

interface LastSave {
  productId: string;
  name: string;
  warnings: string[];
}

/** How far the saved product's colour mockups have got (they render after the save answers), and its contrast warnings. */
function ColourRenderStatus({ save }: { save: LastSave }) {
  const trpc = useTRPC();
  const progress = useQuery({
    ...trpc.admin.mockups.colourProgress.queryOptions({ productId: save.productId }),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && data.done < data.total && !data.failed ? 500 : false;
    },
  }).data;
  return (
    <div className="space-y-2 rounded-xl border border-stone-200 bg-white p-4 text-sm" data-testid="colour-renders">
      {save.warnings.length > 0 && (
        <ul role="alert" className="list-disc space-y-1 pl-5 text-amber-800">
          {save.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      {progress && (
        <p role="status" className={progress.failed ? 'text-red-700' : 'text-stone-700'}>
          {progress.failed
            ? `Some colour mockups of ${save.name} could not be rendered (${progress.done} of ${progress.total} done). Save again to retry.`
            : progress.done < progress.total
              ? `Rendering colour mockups of ${save.name}: ${progress.done} of ${progress.total}...`
              : `Colour mockups of ${save.name} rendered (${progress.total}).`}
        </p>
      )}
    </div>
  );
}

const productLabel = (row: ProductRow) => `${row.name} (${row.sku_number})`;

function Step({ number, title, done, children }: { number: number; title: string; done: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <section className={`${cardClass} p-4 sm:p-6`} aria-labelledby={id}>
      <h2 id={id} className="mb-4 flex items-center gap-3 font-display text-lg font-bold text-stone-950">
        <span
          className={`inline-flex size-7 shrink-0 items-center justify-center rounded-full text-sm ${done ? 'bg-emerald-700 text-white' : 'bg-stone-900 text-white'}`}
          aria-hidden="true"
        >
          {done ? <Check className="size-4" /> : number}
        </span>
        <span>
          <span className="sr-only">Step {number}: </span>
          {title}
        </span>
      </h2>
      {children}
    </section>
  );
}

function ProductSummary({ product }: { product: ProductRow }) {
  const images: [string, string | null][] = [
    ['Front artwork', product.front_art_url],
    ['Back artwork', product.back_art_url],
    ['Front mockup', product.front_mockup_url],
    ['Back mockup', product.back_mockup_url],
  ];
  return (
    <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Current images">
      {images.map(([label, url]) => (
        <li key={label} className="text-center">
          <div className="flex aspect-square items-center justify-center overflow-hidden rounded-lg border border-stone-200 bg-stone-50">
            {url ? (
              <img src={url} alt={`${label} of ${product.name}`} className="size-full object-contain" />
            ) : (
              <span className="text-xs text-stone-600">None</span>
            )}
          </div>
          <p className="mt-1 text-xs font-medium text-stone-700">{label}</p>
        </li>
      ))}
    </ul>
  );
}

function ProductGenerator({
  product,
  templates,
  onSaved,
}: {
  product: ProductRow;
  templates: TemplateRow[];
  /** The save's contrast warnings; null: started over, nothing saved. */
  onSaved: (warnings: string[] | null) => void;
}) {
  const [templateId, setTemplateId] = useState(templates[0]?.id ?? '');
  const template = templates.find((row) => row.id === templateId) ?? null;

  if (!product.front_art_url) {
    return (
      <div className={cardClass}>
        <EmptyState
          title="This product has no front artwork"
          hint="Add front artwork on the product form first: every product needs at least a front mockup."
          icon={Shirt}
        />
      </div>
    );
  }
  if (templates.length === 0) {
    return (
      <div className={cardClass}>
        <EmptyState title="No mockup templates yet" hint="Upload the default front and back templates in Settings first." icon={Shirt} />
      </div>
    );
  }
  return (
    <>
      <Step number={2} title="Choose template" done={template !== null}>
        <fieldset>
          <legend className="sr-only">Template</legend>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {templates.map((row) => (
              <label
                key={row.id}
                className={`cursor-pointer rounded-lg border-2 p-2 text-center transition has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-accent-600/30 ${
                  row.id === templateId ? 'border-accent-600 bg-accent-50' : 'border-stone-200 hover:border-stone-300'
                }`}
              >
                <input
                  type="radio"
                  name="template"
                  value={row.id}
                  checked={row.id === templateId}
                  onChange={() => setTemplateId(row.id)}
                  className="sr-only"
                />
                <img src={row.front_template_url} alt="" className="mx-auto aspect-[5/6] w-full object-contain" />
                <span className="mt-1 block text-sm font-semibold text-stone-900">{row.name}</span>
                {row.is_default && <Badge tone="orange">Default</Badge>}
              </label>
            ))}
          </div>
        </fieldset>
      </Step>
      {/* Positions are relative to a template: another template starts the placement afresh. */}
      {template && <Placement key={template.id} product={product} template={template} onSaved={onSaved} />}
    </>
  );
}

/** Width available to a preview column, followed as the window resizes; give the callback as `ref`. */
function useWidth(): [(element: HTMLDivElement | null) => void, number] {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, width];
}

function Placement({
  product,
  template,
  onSaved,
}: {
  product: ProductRow;
  template: TemplateRow;
  onSaved: (warnings: string[] | null) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sides: MockupSide[] = product.back_art_url ? ['front', 'back'] : ['front'];
  const [side, setSide] = useState<MockupSide>('front');
  const [drafts, setDrafts] = useState<Record<MockupSide, ArtPosition>>({
    front: normalizePosition(template.front_art_position),
    back: normalizePosition(template.back_art_position),
  });
  const [saved, setSaved] = useState<Partial<Record<MockupSide, ArtPosition>>>({});
  const [defaultSide, setDefaultSide] = useState<MockupSide>(product.default_mockup_side);

  const templateUrl = { front: template.front_template_url, back: template.back_template_url };
  const artUrl = { front: product.front_art_url ?? '', back: product.back_art_url ?? '' };
  const templateSize = { front: useImageSize(templateUrl.front), back: useImageSize(templateUrl.back) };
  const artSize = { front: useImageSize(artUrl.front), back: useImageSize(artUrl.back) };
  const [editorRef, editorWidth] = useWidth();
  const [reviewRef, reviewWidth] = useWidth();

  const save = useMutation(
    trpc.admin.mockups.save.mutationOptions({
      // The selection resets with the toast, not after the product list's refetch.
      onSuccess: ({ warnings }) => {
        onSaved(warnings);
        toast.success(MOCKUP_SAVED);
        return queryClient.invalidateQueries({ queryKey: trpc.admin.mockups.products.pathKey() });
      },
      onError: () => toast.error(MOCKUP_SAVE_FAILED),
    }),
  );

  const current = drafts[side];
  const sizes = { template: templateSize[side], art: artSize[side] };
  const refused = sizes.template && sizes.art ? dpiLevel(effectiveDpi(sizes.template, sizes.art, current)) === 'refuse' : true;
  const savedSides = sides.filter((item) => saved[item]);
  const chosenDefault = saved[defaultSide] ? defaultSide : 'front';

  const submit = () => {
    if (!saved.front) {
      toast.error(FRONT_MOCKUP_REQUIRED);
      return;
    }
    save.mutate({
      productId: product.id,
      templateId: template.id,
      front: saved.front,
      ...(saved.back ? { back: saved.back } : {}),
      defaultSide: chosenDefault,
    });
  };

  return (
    <>
      <Step number={3} title="Position artwork and save each side" done={saved.front !== undefined}>
        <div role="tablist" aria-label="Side" className="mb-4 inline-flex rounded-lg border border-stone-300 bg-stone-100 p-1">
          {sides.map((item) => (
            <button
              key={item}
              type="button"
              role="tab"
              aria-selected={item === side}
              onClick={() => setSide(item)}
              className={`inline-flex h-8 items-center gap-1.5 rounded-md px-4 text-sm font-semibold ${item === side ? 'bg-white text-stone-950 shadow-xs' : 'text-stone-700 hover:text-stone-950'}`}
            >
              {SIDE_LABELS[item]}
              {saved[item] && <Check className="size-3.5 text-emerald-700" aria-label="saved" />}
            </button>
          ))}
        </div>
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" role="tabpanel" aria-label={`${SIDE_LABELS[side]} placement`}>
          <div ref={editorRef} className="min-w-0">
            {sizes.template && sizes.art && editorWidth > 0 ? (
              <MockupPreview
                templateUrl={templateUrl[side]}
                templateSize={sizes.template}
                artUrl={artUrl[side]}
                artSize={sizes.art}
                position={current}
                maxWidth={editorWidth}
                label={`${SIDE_LABELS[side]} preview`}
                onMove={(position) => setDrafts((all) => ({ ...all, [side]: position }))}
              />
            ) : (
              <LoadingState label="Loading images..." />
            )}
          </div>
          {sizes.template && sizes.art && (
            <div className="space-y-5">
              <PlacementControls
                position={current}
                onChange={(position) => setDrafts((all) => ({ ...all, [side]: position }))}
                templateSize={sizes.template}
                artSize={sizes.art}
              />
              <Button
                block
                icon={Check}
                disabled={refused}
                onClick={() => {
                  setSaved((all) => ({ ...all, [side]: current }));
                  toast.success(`${SIDE_LABELS[side]} side saved.`);
                }}
              >
                Save {side} side
              </Button>
            </div>
          )}
        </div>
      </Step>

      {savedSides.length > 0 && (
        <Step number={4} title="Review and save to product" done={false}>
          <div ref={reviewRef} className="grid gap-4 sm:grid-cols-2">
            {savedSides.map((item) => {
              const t = templateSize[item];
              const a = artSize[item];
              const position = saved[item]!;
              return (
                <div key={item} className="min-w-0 text-center">
                  {t && a && reviewWidth > 0 && (
                    <MockupPreview
                      templateUrl={templateUrl[item]}
                      templateSize={t}
                      artUrl={artUrl[item]}
                      artSize={a}
                      position={position}
                      maxWidth={savedSides.length > 1 && reviewWidth >= 640 ? (reviewWidth - 16) / 2 : reviewWidth}
                      label={`${SIDE_LABELS[item]} mockup`}
                    />
                  )}
                  <p className="mt-2 text-sm font-semibold text-stone-900">{SIDE_LABELS[item]}</p>
                </div>
              );
            })}
          </div>
          <fieldset className="mt-5">
            <legend className="text-sm font-medium text-stone-800">Default side (shown first in the store)</legend>
            <div className="mt-2 flex gap-4">
              {savedSides.map((item) => (
                <label key={item} className="inline-flex items-center gap-2 text-sm text-stone-900">
                  <input
                    type="radio"
                    name="default-side"
                    value={item}
                    checked={chosenDefault === item}
                    onChange={() => setDefaultSide(item)}
                    className="size-4 accent-accent-700"
                  />
                  {SIDE_LABELS[item]}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="mt-6 flex flex-col-reverse gap-2 border-t border-stone-200 pt-4 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => onSaved(null)} disabled={save.isPending}>
              Start over
            </Button>
            <Button variant="accent" icon={Save} onClick={submit} busy={save.isPending} busyLabel="Saving...">
              Save to Product
            </Button>
          </div>
        </Step>
      )}
    </>
  );
}
