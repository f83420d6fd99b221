import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { SORT_OPTIONS, type SortOption } from '../../../shared/constants';
import { isSortOption, SORT_LABELS } from './catalog-search';

export function SortSelect({ value, onChange }: { value: SortOption; onChange: (sort: SortOption) => void }) {
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
            if (isSortOption(event.target.value)) onChange(event.target.value);
          }}
          className="h-10 appearance-none rounded-full border border-stone-300 bg-white pr-9 pl-4 text-sm font-medium text-stone-900 shadow-sm transition hover:border-stone-400"
        >
          {SORT_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {SORT_LABELS[option]}
            </option>
          ))}
        </select>
        <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-stone-500" aria-hidden="true" />
      </div>
    </div>
  );
}
