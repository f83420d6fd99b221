import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, useFormContext, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  DISCOUNT_KINDS,
  DISCOUNT_SAVE_FAILED,
  DISCOUNT_TARGETS,
  discountInput,
  type DiscountInput,
} from '../../../../shared/schemas/admin-discounts';
import { showServerErrors, toastError } from '../../../errors';
import { useMutation } from '../../../mutations';
import { useTRPC } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Checkbox, NumberField, Select, TextField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { SearchField } from '../../ui/SearchField';
import { toast } from '../../ui/Toast';
import { useInvalidate } from '../parts/use-invalidate';
import type { DiscountRow } from './DiscountsPage';

// The inline discount code form: a new code, or the one clicked, edited and switched off or on.
// Every rule (docs/adr/0031-discount-rules-and-rounding.md) is the shared schema's, checked here
// and again by the server, whose refusals (a code already taken) show under their fields.

const KIND_LABELS: Record<(typeof DISCOUNT_KINDS)[number], string> = {
  percent: 'Percentage off',
  amount: 'Fixed amount off',
  free_shipping: 'Free shipping',
};
const TARGET_LABELS: Record<(typeof DISCOUNT_TARGETS)[number], string> = {
  order: 'The whole order',
  categories: 'Chosen categories',
  products: 'Chosen products',
};

const EMPTY: DiscountInput = {
  code: '',
  kind: 'percent',
  percent: null,
  amount: null,
  applies_to: 'order',
  category_ids: [],
  product_ids: [],
  min_subtotal: null,
  starts_on: '',
  ends_on: '',
  usage_limit: null,
  once_per_customer: false,
  applies_to_club: false,
  club_cycles: null,
};

/** The form's values of a stored code: dollars, and the calendar days (UTC) its bounds fall on. */
function valuesOf(row: DiscountRow): DiscountInput {
  const lastDay = row.ends_at ? new Date(Date.parse(row.ends_at) - 1).toISOString().slice(0, 10) : '';
  return {
    code: row.code,
    kind: row.kind,
    percent: row.kind === 'percent' ? row.value : null,
    amount: row.kind === 'amount' && row.value !== null ? row.value / 100 : null,
    applies_to: row.applies_to,
    category_ids: row.category_ids,
    product_ids: row.product_ids,
    min_subtotal: row.min_subtotal_cents === null ? null : row.min_subtotal_cents / 100,
    starts_on: row.starts_at ? row.starts_at.slice(0, 10) : '',
    ends_on: lastDay,
    usage_limit: row.usage_limit,
    once_per_customer: row.once_per_customer,
    applies_to_club: row.applies_to_club,
    club_cycles: row.club_cycles,
  };
}

export function DiscountForm({ editing, onDone }: { editing: DiscountRow | null; onDone: () => void }) {
  const trpc = useTRPC();
  const refresh = useInvalidate(trpc.admin.discounts.list.pathKey());
  const form = useForm<DiscountInput, unknown, z.output<typeof discountInput>>({
    resolver: zodResolver(discountInput),
    defaultValues: editing ? valuesOf(editing) : EMPTY,
  });
  const { control, setFocus } = form;
  const kind = useWatch({ control, name: 'kind' });
  const target = useWatch({ control, name: 'applies_to' });
  const club = useWatch({ control, name: 'applies_to_club' });

  useEffect(() => setFocus('code'), [setFocus]);

  const onSaved = async (code: string) => {
    toast.success(`Discount code ${code} saved.`);
    onDone();
    await refresh();
  };
  const onFailed = (error: unknown) => {
    toast.error(DISCOUNT_SAVE_FAILED);
    const shown = showServerErrors(form, error);
    if (!shown.onFields && shown.message) toast.error(shown.message);
    void refresh();
  };
  const create = useMutation(trpc.admin.discounts.create.mutationOptions({ onSuccess: (row) => onSaved(row.code), onError: onFailed }));
  const update = useMutation(trpc.admin.discounts.update.mutationOptions({ onSuccess: (row) => onSaved(row.code), onError: onFailed }));
  const setActive = useMutation(
    trpc.admin.discounts.setActive.mutationOptions({
      onSuccess: async (row) => {
        toast.success(row.is_active ? `Discount code ${row.code} switched on.` : `Discount code ${row.code} switched off.`);
        onDone();
        await refresh();
      },
      onError: toastError(DISCOUNT_SAVE_FAILED),
    }),
  );
  const saving = create.isPending || update.isPending || setActive.isPending;

  return (
    <Card title={editing ? `Edit discount code: ${editing.code}` : 'New discount code'} className="mb-6" data-testid="discount-form">
      <Form
        form={form}
        onSubmit={(values) =>
          editing ? update.mutate({ id: editing.id, updatedAt: editing.updated_at, ...values }) : create.mutate(values)
        }
        className="grid gap-4 md:grid-cols-2"
      >
        <TextField
          name="code"
          label="Code"
          required
          autoComplete="off"
          spellCheck={false}
          hint="Letters, digits, - and _; shoppers may type it in any case."
        />
        <Select name="kind" label="Gives">
          {DISCOUNT_KINDS.map((value) => (
            <option key={value} value={value}>
              {KIND_LABELS[value]}
            </option>
          ))}
        </Select>
        {kind === 'percent' && <NumberField name="percent" label="Percentage (%)" whole optional max={100} required />}
        {kind === 'amount' && <NumberField name="amount" label="Amount off ($)" optional required />}
        <Select name="applies_to" label="Applies to" className={kind === 'free_shipping' ? 'md:col-start-1' : undefined}>
          {DISCOUNT_TARGETS.map((value) => (
            <option key={value} value={value}>
              {TARGET_LABELS[value]}
            </option>
          ))}
        </Select>
        {target === 'categories' && <CategoryChoice />}
        {target === 'products' && <ProductChoice initial={editing?.products ?? []} />}
        <NumberField name="min_subtotal" label="Minimum subtotal ($)" optional hint="Leave empty for no minimum." />
        <NumberField name="usage_limit" label="Total usage limit" whole optional hint="Leave empty for no limit." />
        <TextField name="starts_on" label="Starts on" type="date" hint="Optional. From the start of this day (UTC)." />
        <TextField name="ends_on" label="Ends on" type="date" hint="Optional. Through the end of this day (UTC)." />
        <Checkbox name="once_per_customer" label="Once per customer" hint="Each account may use it on one order." />
        <div className="space-y-3">
          <Checkbox
            name="applies_to_club"
            label="Applies when joining a club plan"
            hint="Kept with the code for club joins; joining a plan does not take codes yet."
          />
          {club && <NumberField name="club_cycles" label="For how many cycles" whole optional required hint="1 = the first box only." />}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end md:col-span-2">
          {editing && (
            <Button
              variant={editing.is_active ? 'secondary-danger' : 'secondary'}
              className="sm:mr-auto"
              disabled={saving}
              onClick={() => setActive.mutate({ id: editing.id, is_active: !editing.is_active })}
            >
              {editing.is_active ? 'Switch Off' : 'Switch On'}
            </Button>
          )}
          <Button variant="secondary" onClick={onDone} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" busy={create.isPending || update.isPending} busyLabel="Saving..." disabled={saving}>
            {editing ? 'Update Discount Code' : 'Create Discount Code'}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

/** A choice of several ids kept in one form field, with its error under the group. */
function useChosenIds(name: 'category_ids' | 'product_ids') {
  const { control, setValue, getFieldState, formState } = useFormContext<DiscountInput>();
  const chosen = useWatch({ control, name });
  const error = getFieldState(name, formState).error?.message;
  const toggle = (id: string, on: boolean) =>
    setValue(name, on ? [...chosen, id] : chosen.filter((other) => other !== id), { shouldValidate: formState.isSubmitted });
  return { chosen, error, toggle };
}

function ChoiceError({ message }: { message: string | undefined }) {
  return message ? (
    <p className="mt-1.5 text-sm text-red-700" data-testid="field-error">
      {message}
    </p>
  ) : null;
}

function CategoryChoice() {
  const trpc = useTRPC();
  const categories = useQuery(trpc.admin.categories.list.queryOptions()).data ?? [];
  const { chosen, error, toggle } = useChosenIds('category_ids');
  return (
    <fieldset className="md:col-span-2">
      <legend className="text-sm font-medium text-stone-800">Categories</legend>
      <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-3">
        {categories.map((category) => (
          <label key={category.id} className="flex items-center gap-2 text-sm text-stone-800">
            <input
              type="checkbox"
              className="size-4.5 rounded border-stone-400 accent-accent-700"
              checked={chosen.includes(category.id)}
              onChange={(event) => toggle(category.id, event.target.checked)}
            />
            {category.name}
          </label>
        ))}
      </div>
      <ChoiceError message={error} />
    </fieldset>
  );
}

/** Products found by the admin's product search, added one by one; the chosen ones as removable chips. */
function ProductChoice({ initial }: { initial: { id: string; name: string }[] }) {
  const trpc = useTRPC();
  const [search, setSearch] = useState('');
  const [names, setNames] = useState(() => new Map(initial.map((product) => [product.id, product.name])));
  const found = useQuery({ ...trpc.admin.products.list.queryOptions({ search }), enabled: search !== '' }).data?.items ?? [];
  const { chosen, error, toggle } = useChosenIds('product_ids');
  const add = (product: { id: string; name: string }) => {
    setNames((known) => new Map(known).set(product.id, product.name));
    if (!chosen.includes(product.id)) toggle(product.id, true);
  };
  return (
    <fieldset className="md:col-span-2">
      <legend className="text-sm font-medium text-stone-800">Products</legend>
      {chosen.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label="Chosen products">
          {chosen.map((id) => (
            <li key={id} className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-1 pr-1 pl-3 text-sm text-stone-800">
              {names.get(id) ?? 'Product'}
              <button
                type="button"
                className="rounded-full p-1 text-stone-600 hover:bg-stone-200"
                aria-label={`Remove ${names.get(id) ?? 'product'}`}
                onClick={() => toggle(id, false)}
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <SearchField label="Find products" className="mt-2" value={search} onSearch={setSearch} placeholder="Search by name or SKU..." />
      {found.length > 0 && (
        <ul className="mt-2 max-h-48 divide-y divide-stone-100 overflow-y-auto rounded-lg ring-1 ring-stone-200">
          {found.map((product) => (
            <li key={product.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <span className="min-w-0 truncate">{product.name}</span>
              <Button size="xs" variant="secondary" disabled={chosen.includes(product.id)} onClick={() => add(product)}>
                {chosen.includes(product.id) ? 'Added' : 'Add'}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ChoiceError message={error} />
    </fieldset>
  );
}
