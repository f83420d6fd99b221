import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { normalizeTag } from '../../../../shared/schemas/admin-artwork';
import { inputBase, inputOk, secondaryButton } from '../ui/styles';

// Tags of an artwork (SPEC §2, §5): the popular tags as buttons, a custom tag added with Enter or
// Add (trimmed, lowercased, ignored when empty or already there), each chosen tag removable.

export function TagEditor({ value, onChange, popular }: { value: string[]; onChange: (tags: string[]) => void; popular: readonly string[] }) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const add = (raw: string) => {
    const tag = normalizeTag(raw, value);
    if (tag) onChange([...value, tag]);
  };
  const addDraft = () => {
    add(draft);
    setDraft('');
  };
  const offered = popular.filter((tag) => !value.includes(tag));

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        Tags
      </label>
      <div className="mt-1.5 flex gap-2">
        <input
          id={id}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            // Enter adds the tag instead of submitting the form.
            if (event.key === 'Enter') {
              event.preventDefault();
              addDraft();
            }
          }}
          placeholder="Add a tag"
          maxLength={50}
          className={`${inputBase} ${inputOk}`}
        />
        <button type="button" className={secondaryButton} onClick={addDraft}>
          <Plus className="size-4" aria-hidden="true" />
          Add
        </button>
      </div>
      {value.length > 0 && (
        <ul className="mt-2.5 flex flex-wrap gap-1.5" aria-label="Chosen tags">
          {value.map((tag) => (
            <li key={tag} className="inline-flex items-center gap-1 rounded-full bg-accent-50 py-0.5 pr-1 pl-2.5 text-xs font-semibold text-accent-800 ring-1 ring-accent-600/20 ring-inset">
              {tag}
              <button
                type="button"
                onClick={() => onChange(value.filter((item) => item !== tag))}
                className="inline-flex size-5 items-center justify-center rounded-full hover:bg-accent-100"
                aria-label={`Remove tag ${tag}`}
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {offered.length > 0 && (
        <div className="mt-3">
          <p className="text-xs font-medium text-stone-600" id={`${id}-popular`}>
            Popular tags
          </p>
          <ul className="mt-1.5 flex flex-wrap gap-1.5" aria-labelledby={`${id}-popular`}>
            {offered.map((tag) => (
              <li key={tag}>
                <button
                  type="button"
                  onClick={() => add(tag)}
                  className="rounded-full border border-stone-300 bg-white px-2.5 py-0.5 text-xs font-medium text-stone-700 hover:border-stone-400 hover:bg-stone-50"
                  aria-label={`Add tag ${tag}`}
                >
                  + {tag}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
