import type { ReactNode } from 'react';

// The categories a member's shirts come from: checkboxes, at most `limit` checked (the rest are
// disabled once the limit is reached).

interface CategoryChoicesProps {
  categories: readonly { id: string; name: string }[];
  chosen: readonly string[];
  limit: number;
  onChange: (chosen: string[]) => void;
  legend: ReactNode;
  describedBy?: string | undefined;
  children?: ReactNode;
}

export function CategoryChoices({ categories, chosen, limit, onChange, legend, describedBy, children }: CategoryChoicesProps) {
  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="text-sm font-medium text-stone-900">{legend}</legend>
      {children}
      <div className="mt-3 grid gap-2 sm:grid-cols-2">
        {categories.map((category) => {
          const checked = chosen.includes(category.id);
          return (
            <label
              key={category.id}
              className="flex items-center gap-3 rounded-lg border border-stone-200 px-3 py-2.5 text-sm text-stone-800 has-[:checked]:border-accent-600 has-[:checked]:bg-accent-50"
            >
              <input
                type="checkbox"
                className="size-4 accent-accent-700"
                checked={checked}
                disabled={!checked && chosen.length >= limit}
                onChange={(event) =>
                  onChange(event.target.checked ? [...chosen, category.id] : chosen.filter((other) => other !== category.id))
                }
              />
              {category.name}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
