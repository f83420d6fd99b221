import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { CircleAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type UseFormRegisterReturn } from 'react-hook-form';
import { useMutation } from '../../../mutations';
import { CHEST_POSITIONS, MOCKUP_SIDES, SIZES, type ChestPosition, type MockupSide } from '../../../../shared/constants';
import {
  ARTWORK_REQUIRED,
  cleanTags,
  newProductValues,
  PRODUCT_SAVE_FAILED,
  productInput,
  type ProductFormValues,
  type ProductInput,
} from '../../../../shared/schemas/admin-products';
import { slugify } from '../../../../shared/slug';
import { showServerErrors } from '../../../errors';
import { useTRPC, type RouterOutputs } from '../../../trpc';
import { Button, ButtonLink } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Checkbox, NumberField, Select, TextArea, TextField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { toast } from '../../ui/Toast';
import { RecordOptions } from '../parts/RecordOptions';
import { UploadField } from '../parts/UploadField';
import { TagInput } from '../parts/TagInput';
import { ColoursSection } from './ColoursSection';
import { useSlugFromName } from '../parts/use-slug-from-name';

export type AdminProduct = RouterOutputs['admin']['products']['byId'];

const CHEST_LABELS: Record<ChestPosition, string> = { left_chest: 'Left chest', full_chest: 'Full chest' };
const SIDE_LABELS: Record<MockupSide, string> = { front: 'Front', back: 'Back' };
const ART_SIDES = [
  { field: 'front_art_url', side: 'front', label: 'Front' },
  { field: 'back_art_url', side: 'back', label: 'Back' },
] as const;

/** The form's starting values for an existing product (nulls become empty fields). */
function valuesOf(product: AdminProduct): ProductFormValues {
  return {
    name: product.name,
    slug: product.slug,
    sku_number: product.sku_number,
    description: product.description,
    price: Number(product.price),
    category_id: product.category_id,
    image_url: product.image_url ?? '',
    front_art_url: product.front_art_url ?? '',
    back_art_url: product.back_art_url ?? '',
    front_mockup_url: product.front_mockup_url ?? '',
    back_mockup_url: product.back_mockup_url ?? '',
    chest_position: product.chest_position,
    default_mockup_side: product.default_mockup_side,
    available_sizes: product.available_sizes,
    tags: product.tags,
    is_featured: product.is_featured,
    is_active: product.is_active,
    colours: product.colours.map((colour) => ({
      id: colour.id,
      name: colour.name,
      hex: colour.hex,
      off_sizes: colour.off_sizes,
      front_blank_url: colour.front_blank_url ?? '',
      back_blank_url: colour.back_blank_url ?? '',
    })),
  };
}

/** The form for /admin/products/new (no product) and /admin/products/{id}/edit. */
export function ProductForm({ product }: { product?: AdminProduct }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const categories = useQuery(trpc.admin.products.categoryOptions.queryOptions()).data;
  const [saveError, setSaveError] = useState<string | null>(null);
  // The product as the form loaded it: a refetch (the window refocused) must not make a save over
  // changes made elsewhere look current.
  const [loadedAt] = useState(() => product?.updated_at ?? '');
  const [uploading, setUploading] = useState(0);

  const form = useForm<ProductFormValues, unknown, ProductInput>({
    resolver: zodResolver(productInput),
    defaultValues: product ? valuesOf(product) : newProductValues(),
  });
  const {
    register,
    control,
    setValue,
    trigger,
    formState: { errors, isSubmitted },
  } = form;

  // An existing product's hand-made slug stays as it is.
  const slug = useSlugFromName((value) => setValue('slug', value, { shouldValidate: isSubmitted }), {
    ownSlug: product ? product.slug !== slugify(product.name) : false,
  });

  const onSaved = async (message: string) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.admin.products.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.admin.dashboard.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() }),
    ]);
    toast.success(message);
    await navigate({ to: '/admin/products' });
  };
  // The spec's text, with the server's reason when it gives one; a named field shows it too.
  const onSaveError = (error: unknown) => setSaveError(showServerErrors(form, error).message ?? '');
  const create = useMutation(
    trpc.admin.products.create.mutationOptions({ onSuccess: () => onSaved('Product created'), onError: onSaveError }),
  );
  const update = useMutation(
    trpc.admin.products.update.mutationOptions({ onSuccess: () => onSaved('Product saved'), onError: onSaveError }),
  );
  const saving = create.isPending || update.isPending;

  const submit = (values: ProductInput) => {
    setSaveError(null);
    if (product) update.mutate({ id: product.id, updatedAt: loadedAt, ...values });
    else create.mutate(values);
  };

  /** Sets an artwork URL from an upload; after a first submit, the artwork rule is checked again at once. */
  const setArt = (field: 'front_art_url' | 'back_art_url', url: string | null) => {
    setValue(field, url ?? '', { shouldDirty: true });
    if (isSubmitted) void trigger(['front_art_url', 'back_art_url']);
  };
  const recheckArtwork = {
    onChange: () => {
      if (isSubmitted) void trigger(['front_art_url', 'back_art_url']);
    },
  };
  const busyChange = (busy: boolean) => setUploading((count) => count + (busy ? 1 : -1));

  // "Front or back artwork" is one rule: its message stands above both fields, not under one.
  const artworkMissing = errors.front_art_url?.message === ARTWORK_REQUIRED;
  const [frontArt, backArt] = useWatch({ control, name: ['front_art_url', 'back_art_url'] });

  return (
    <Form form={form} onSubmit={submit} aria-label={product ? `Edit ${product.name}` : 'New product'}>
      {saveError !== null && (
        <div
          role="alert"
          data-testid="save-error"
          className="mb-6 flex items-start gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          <CircleAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-semibold">{PRODUCT_SAVE_FAILED}</p>
            {saveError && <p className="mt-0.5">{saveError}</p>}
          </div>
        </div>
      )}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Section title="Details" layout="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField name="name" label="Name" required autoComplete="off" className="sm:col-span-2" registerOptions={slug.nameOptions} />
            <TextField
              name="slug"
              label="Slug"
              required
              autoComplete="off"
              spellCheck={false}
              hint="Made from the name until you change it; used in the product's address."
              registerOptions={slug.slugOptions}
            />
            <TextField
              name="sku_number"
              label="SKU"
              required
              autoComplete="off"
              spellCheck={false}
              hint="Unique stock code, e.g. TL-MC-001."
            />
            <NumberField name="price" label="Price (USD)" required />
            <Select name="category_id" label="Category" required>
              <option value="">{categories ? 'Select a category' : 'Loading categories...'}</option>
              {categories && <RecordOptions records={categories} />}
            </Select>
            <TextArea name="description" label="Description" required rows={5} className="sm:col-span-2" />
          </Section>

          <Section
            title="Artwork"
            description="Upload front and back print files (PNG, JPG or WebP, up to 50MB), or paste their URLs. At least one is needed."
          >
            {artworkMissing && (
              <p
                role="alert"
                data-testid="artwork-error"
                className="mb-4 flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800"
              >
                <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                {ARTWORK_REQUIRED}
              </p>
            )}
            <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
              {ART_SIDES.map(({ field, side, label }) => (
                <div key={field} className="space-y-3">
                  <UploadField
                    label={`${label} artwork`}
                    bucket="product-art"
                    value={field === 'front_art_url' ? frontArt : backArt}
                    onChange={(url) => setArt(field, url)}
                    onBusyChange={busyChange}
                    testId={`${side}-art-upload`}
                  />
                  <TextField
                    name={field}
                    label={`${label} artwork URL`}
                    type="url"
                    autoComplete="off"
                    // The missing-artwork message stands above both fields instead of under the front one.
                    showError={field === 'back_art_url' || !artworkMissing}
                    registerOptions={recheckArtwork}
                  />
                </div>
              ))}
            </div>
          </Section>

          <Section
            title="Colours"
            description="Each colour is the design on a shirt of that colour, with its own mockups. Switch off the sizes a colour does not come in."
          >
            <ColoursSection saved={product?.colours ?? []} />
          </Section>

          <Section
            title="Mockups and image"
            description="Usually filled in by the mockup generator. The image is the picture shown in the shop; empty shows a stock image."
            layout="grid grid-cols-1 gap-4 sm:grid-cols-2"
          >
            <TextField name="front_mockup_url" label="Front mockup URL" type="url" autoComplete="off" />
            <TextField name="back_mockup_url" label="Back mockup URL" type="url" autoComplete="off" />
            <TextField name="image_url" label="Image URL" type="url" autoComplete="off" />
            <RadioGroup
              legend="Mockup shown first"
              options={MOCKUP_SIDES}
              labels={SIDE_LABELS}
              registration={register('default_mockup_side')}
            />
          </Section>
        </div>

        <div className="space-y-6">
          <Section title="Visibility" layout="space-y-4">
            <Checkbox name="is_active" label="Active" hint="Shown in the store." />
            <Checkbox name="is_featured" label="Featured" hint="Shown on the home page." />
          </Section>

          <Section title="Sizes">
            <fieldset aria-describedby={errors.available_sizes ? 'sizes-error' : undefined}>
              <legend className="sr-only">Available sizes</legend>
              <div className="grid grid-cols-4 gap-2">
                {SIZES.map((size) => (
                  <label
                    key={size}
                    className="flex h-10 cursor-pointer items-center justify-center rounded-lg border border-stone-300 bg-white text-sm font-semibold text-stone-700 transition focus-within:ring-3 focus-within:ring-accent-600/30 hover:border-stone-400 has-checked:border-stone-900 has-checked:bg-stone-900 has-checked:text-white"
                  >
                    <input type="checkbox" value={size} className="sr-only" {...register('available_sizes')} />
                    {size}
                  </label>
                ))}
              </div>
              {errors.available_sizes && (
                <p id="sizes-error" className="mt-2 text-sm text-red-700">
                  {errors.available_sizes.message}
                </p>
              )}
            </fieldset>
          </Section>

          <Section title="Print">
            <RadioGroup legend="Chest position" options={CHEST_POSITIONS} labels={CHEST_LABELS} registration={register('chest_position')} />
          </Section>

          <Section title="Tags">
            <Controller
              control={control}
              name="tags"
              render={({ field, fieldState }) => (
                <TagInput
                  label="Add a tag"
                  placeholder="e.g. vintage"
                  hint="Press Enter or Add. Separate several with commas."
                  value={field.value ?? []}
                  onChange={field.onChange}
                  addTags={(text, current) => cleanTags([...current, ...text.split(',')])}
                  error={fieldState.error?.message}
                />
              )}
            />
          </Section>
        </div>
      </div>

      <div className="sticky bottom-0 z-20 -mx-4 mt-6 flex justify-end gap-2 border-t border-stone-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
        <ButtonLink to="/admin/products" variant="secondary">
          Cancel
        </ButtonLink>
        <Button type="submit" variant="accent" busy={saving} busyLabel="Saving..." disabled={uploading > 0}>
          {uploading > 0 ? 'Uploading...' : product ? 'Save Product' : 'Create Product'}
        </Button>
      </div>
    </Form>
  );
}

/** A titled card of the form; `layout` is the classes of a box that lays out its fields (a grid, a stack). */
function Section({ title, description, layout, children }: { title: string; description?: string; layout?: string; children: ReactNode }) {
  return (
    <Card className="p-5">
      <h2 className="font-display text-base font-bold text-stone-950">{title}</h2>
      {description && <p className="mt-1 text-sm text-stone-600">{description}</p>}
      <div className="mt-4">{layout ? <div className={layout}>{children}</div> : children}</div>
    </Card>
  );
}

/** One radio button per option, each bound to the same form field. */
function RadioGroup<Option extends string>({
  legend,
  options,
  labels,
  registration,
}: {
  legend: string;
  options: readonly Option[];
  labels: Record<Option, string>;
  registration: UseFormRegisterReturn;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        {options.map((option) => (
          <label key={option} className="inline-flex cursor-pointer items-center gap-2 text-sm text-stone-800">
            <input type="radio" value={option} className="size-4 accent-accent-700" {...registration} />
            {labels[option]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
