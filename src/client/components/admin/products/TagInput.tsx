import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { cleanTags } from '../../../../shared/schemas/admin-products';
import { inputBase, inputOk, secondaryButton } from '../ui/styles';

/** Tags as removable chips; a new one is typed and added with Enter or the Add button (trimmed, each once). */
export function TagInput({ value, onChange, error }: { value: string[]; onChange: (tags: string[]) => void; error?: string | undefined }) {
  const id = useId();
  const [text, setText] = useState('');
  const add = () => {
    onChange(cleanTags([...value, ...text.split(',')]));
    setText('');
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        Add a tag
      </label>
      <div className="mt-1.5 flex gap-2">
        <input
          id={id}
          value={text}
          maxLength={50}
          placeholder="e.g. vintage"
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          className={`${inputBase} ${inputOk}`}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            // Enter adds the tag instead of submitting the form.
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className={`${secondaryButton} shrink-0`} onClick={add} disabled={text.trim() === ''}>
          <Plus className="size-4" aria-hidden="true" />
          Add
        </button>
      </div>
      <p id={`${id}-hint`} className="mt-1.5 text-xs text-stone-600">
        Press Enter or Add. Separate several with commas.
      </p>
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      )}
      {value.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Chosen tags" data-testid="tag-list">
          {value.map((tag) => (
            <li key={tag} className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-1 pr-1 pl-3 text-sm font-medium text-stone-800">
              {tag}
              <button
                type="button"
                className="inline-flex size-6 items-center justify-center rounded-full text-stone-600 hover:bg-stone-200 hover:text-stone-900"
                onClick={() => onChange(value.filter((other) => other !== tag))}
                aria-label={`Remove tag ${tag}`}
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
