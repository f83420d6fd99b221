import { ChevronDown } from 'lucide-react';
import { useId } from 'react';

/** The sort of a product list: `options`, each shown with its label. */
export function SortSelect<Sort extends string>({
  value,
  options,
  labels,
  onChange,
}: {
  value: Sort;
  options: readonly Sort[];
  labels: Record<Sort, string>;
  onChange: (sort: Sort) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="shrink-0 text-sm font-medium text-stone-700">
        Sort by
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(event) => {
            const next = options.find((option) => option === event.target.value);
            if (next) onChange(next);
          }}
          className="h-10 appearance-none rounded-full border border-stone-300 bg-white pr-9 pl-4 text-sm font-medium text-stone-900 shadow-sm transition hover:border-stone-400"
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
        <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-stone-500" aria-hidden="true" />
      </div>
    </div>
  );
}
