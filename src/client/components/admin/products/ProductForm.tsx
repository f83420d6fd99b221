import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { CircleAlert, LoaderCircle } from 'lucide-react';
import { useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { Controller, useForm, useWatch, type Path } from 'react-hook-form';
import { CHEST_POSITIONS, MOCKUP_SIDES, SIZES, type ChestPosition, type MockupSide } from '../../../../shared/constants';
import {
  ARTWORK_REQUIRED,
  newProductValues,
  PRODUCT_SAVE_FAILED,
  productInput,
  type ProductFormValues,
  type ProductInput,
} from '../../../../shared/schemas/admin-products';
import { slugify } from '../../../../shared/slug';
import type { AppRouter } from '../../../../server/trpc/router';
import { useTRPC } from '../../../trpc';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { accentButton, card, secondaryButton } from '../ui/styles';
import { useToast } from '../ui/Toast';
import { UploadField } from '../ui/UploadField';
import { TagInput } from './TagInput';

export type AdminProduct = inferRouterOutputs<AppRouter>['admin']['products']['byId'];

const CHEST_LABELS: Record<ChestPosition, string> = { left_chest: 'Left chest', full_chest: 'Full chest' };
const SIDE_LABELS: Record<MockupSide, string> = { front: 'Front', back: 'Back' };

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
  };
}

/** Error codes whose message says what to fix; other failures show only the spec's general text. */
const EXPLAINED_CODES = new Set(['BAD_REQUEST', 'CONFLICT', 'NOT_FOUND']);

interface ServerErrorData {
  code?: string;
  fieldErrors?: Record<string, string[] | undefined> | null;
}

/** The form for /admin/products/new (no product) and /admin/products/{id}/edit. */
export function ProductForm({ product }: { product?: AdminProduct }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const categories = useQuery(trpc.admin.products.categoryOptions.queryOptions()).data;
  const [saveError, setSaveError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(0);

  const {
    register,
    handleSubmit,
    control,
    setValue,
    setError,
    trigger,
    formState: { errors, isSubmitted },
  } = useForm<ProductFormValues, unknown, ProductInput>({
    resolver: zodResolver(productInput),
    defaultValues: product ? valuesOf(product) : newProductValues(),
  });

  // The slug follows the name (SPEC §5: generated from the name) until the admin types their own;
  // clearing it hands it back to the name. An existing product's hand-made slug stays as it is.
  const [slugEdited, setSlugEdited] = useState(product ? product.slug !== slugify(product.name) : false);
  const nameField = register('name', {
    onChange: (event: { target: { value: string } }) => {
      if (!slugEdited) setValue('slug', slugify(event.target.value), { shouldValidate: isSubmitted });
    },
  });
  const slugField = register('slug', {
    onChange: (event: { target: { value: string } }) => setSlugEdited(event.target.value.trim() !== ''),
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
  const onSaveError = (error: unknown) => {
    const data = error instanceof TRPCClientError ? (error.data as ServerErrorData | undefined) : undefined;
    const explained = data?.code !== undefined && EXPLAINED_CODES.has(data.code) && error instanceof Error;
    setSaveError(explained ? error.message : '');
    // The server names the field when it can: a duplicate SKU or slug, or a rule the form missed.
    for (const [field, messages] of Object.entries(data?.fieldErrors ?? {})) {
      if (messages?.[0]) setError(field as Path<ProductFormValues>, { message: messages[0] });
    }
    if (explained && /SKU/.test(error.message)) setError('sku_number', { message: error.message }, { shouldFocus: true });
    if (explained && /slug/.test(error.message)) setError('slug', { message: error.message }, { shouldFocus: true });
  };
  const create = useMutation(trpc.admin.products.create.mutationOptions({ onSuccess: () => onSaved('Product created'), onError: onSaveError }));
  const update = useMutation(trpc.admin.products.update.mutationOptions({ onSuccess: () => onSaved('Product saved'), onError: onSaveError }));
  const saving = create.isPending || update.isPending;

  const submit = handleSubmit((values) => {
    setSaveError(null);
    if (product) update.mutate({ id: product.id, product: values });
    else create.mutate(values);
  });

  /** Sets an artwork URL from an upload; after a first submit, the artwork rule is checked again at once. */
  const setArt = (field: 'front_art_url' | 'back_art_url', url: string | null) => {
    setValue(field, url ?? '', { shouldDirty: true });
    if (isSubmitted) void trigger(['front_art_url', 'back_art_url']);
  };
  const artRegister = (field: 'front_art_url' | 'back_art_url') =>
    register(field, {
      onChange: () => {
        if (isSubmitted) void trigger(['front_art_url', 'back_art_url']);
      },
    });
  const busyChange = (busy: boolean) => setUploading((count) => count + (busy ? 1 : -1));

  const artworkMissing = errors.front_art_url?.message === ARTWORK_REQUIRED;
  const frontArtError = artworkMissing ? undefined : errors.front_art_url?.message;
  const [frontArt, backArt] = useWatch({ control, name: ['front_art_url', 'back_art_url'] });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={product ? `Edit ${product.name}` : 'New product'}>
      {saveError !== null && (
        <div role="alert" data-testid="save-error" className="mb-6 flex items-start gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <CircleAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-semibold">{PRODUCT_SAVE_FAILED}</p>
            {saveError && <p className="mt-0.5">{saveError}</p>}
          </div>
        </div>
      )}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Section title="Details">
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <TextField label="Name" required autoComplete="off" error={errors.name?.message} className="sm:col-span-2" {...nameField} />
              <TextField
                label="Slug"
                required
                autoComplete="off"
                spellCheck={false}
                error={errors.slug?.message}
                hint="Made from the name until you change it; used in the product's address."
                {...slugField}
              />
              <TextField label="SKU" required autoComplete="off" spellCheck={false} error={errors.sku_number?.message} hint="Unique stock code, e.g. TL-MC-001." {...register('sku_number')} />
              <TextField
                label="Price (USD)"
                required
                type="number"
                inputMode="decimal"
                min={0}
                step={0.01}
                error={errors.price?.message}
                {...register('price', { valueAsNumber: true })}
              />
              <SelectField label="Category" required error={errors.category_id?.message} {...register('category_id')}>
                <option value="">{categories ? 'Select a category' : 'Loading categories...'}</option>
                {categories?.map((category) => (
                  <option key={category.id} value={category.id}>
                    {category.name}
                    {category.is_active ? '' : ' (inactive)'}
                  </option>
                ))}
              </SelectField>
              <TextAreaField label="Description" required rows={5} error={errors.description?.message} className="sm:col-span-2" {...register('description')} />
            </div>
          </Section>

          <Section title="Artwork" description="Upload front and back print files (PNG, JPG or WebP, up to 50MB), or paste their URLs. At least one is needed.">
            {artworkMissing && (
              <p role="alert" data-testid="artwork-error" className="mb-4 flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800">
                <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                {ARTWORK_REQUIRED}
              </p>
            )}
            <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
              <div className="space-y-3">
                <UploadField
                  label="Front artwork"
                  bucket="product-art"
                  value={frontArt}
                  onChange={(url) => setArt('front_art_url', url)}
                  onBusyChange={busyChange}
                  testId="front-art-upload"
                />
                <TextField label="Front artwork URL" type="url" autoComplete="off" error={frontArtError} {...artRegister('front_art_url')} />
              </div>
              <div className="space-y-3">
                <UploadField
                  label="Back artwork"
                  bucket="product-art"
                  value={backArt}
                  onChange={(url) => setArt('back_art_url', url)}
                  onBusyChange={busyChange}
                  testId="back-art-upload"
                />
                <TextField label="Back artwork URL" type="url" autoComplete="off" error={errors.back_art_url?.message} {...artRegister('back_art_url')} />
              </div>
            </div>
          </Section>

          <Section title="Mockups and image" description="Usually filled in by the mockup generator. The image is the picture shown in the shop; empty shows a stock image.">
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <TextField label="Front mockup URL" type="url" autoComplete="off" error={errors.front_mockup_url?.message} {...register('front_mockup_url')} />
              <TextField label="Back mockup URL" type="url" autoComplete="off" error={errors.back_mockup_url?.message} {...register('back_mockup_url')} />
              <TextField label="Image URL" type="url" autoComplete="off" error={errors.image_url?.message} {...register('image_url')} />
              <RadioGroup legend="Mockup shown first">
                {MOCKUP_SIDES.map((side) => (
                  <Radio key={side} label={SIDE_LABELS[side]} value={side} {...register('default_mockup_side')} />
                ))}
              </RadioGroup>
            </div>
          </Section>
        </div>

        <div className="space-y-6">
          <Section title="Visibility">
            <div className="space-y-4">
              <CheckboxField label="Active" hint="Shown in the store." {...register('is_active')} />
              <CheckboxField label="Featured" hint="Shown on the home page." {...register('is_featured')} />
            </div>
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
            <RadioGroup legend="Chest position">
              {CHEST_POSITIONS.map((position) => (
                <Radio key={position} label={CHEST_LABELS[position]} value={position} {...register('chest_position')} />
              ))}
            </RadioGroup>
          </Section>

          <Section title="Tags">
            <Controller
              control={control}
              name="tags"
              render={({ field, fieldState }) => <TagInput value={field.value ?? []} onChange={field.onChange} error={fieldState.error?.message} />}
            />
          </Section>
        </div>
      </div>

      <div className="sticky bottom-0 z-20 -mx-4 mt-6 flex justify-end gap-2 border-t border-stone-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
        <Link to="/admin/products" className={secondaryButton}>
          Cancel
        </Link>
        <button type="submit" className={accentButton} disabled={saving || uploading > 0}>
          {saving && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
          {saving ? 'Saving...' : uploading > 0 ? 'Uploading...' : product ? 'Save Product' : 'Create Product'}
        </button>
      </div>
    </form>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className={`${card} p-5`}>
      <h2 className="font-display text-base font-bold text-stone-950">{title}</h2>
      {description && <p className="mt-1 text-sm text-stone-600">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

function RadioGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">{children}</div>
    </fieldset>
  );
}

function Radio({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-stone-800">
      <input type="radio" className="size-4 accent-accent-700" {...input} />
      {label}
    </label>
  );
}
