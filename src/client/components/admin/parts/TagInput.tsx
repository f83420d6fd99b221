import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../ui/Button';
import { controlClass } from '../../ui/fields';

// Tags as removable chips: a new one is typed and added with Enter or the Add button, popular
// ones (when given) with one click. Products and artwork clean tags differently, so the caller's
// `addTags` turns typed text into the new list.

interface TagInputProps {
  label: string;
  value: string[];
  onChange: (tags: string[]) => void;
  /** The list after adding what was typed (unchanged when nothing new was typed). */
  addTags: (text: string, current: string[]) => string[];
  /** Tags offered as one-click buttons. */
  popular?: readonly string[];
  placeholder?: string;
  hint?: string;
  error?: string | undefined;
}

export function TagInput({ label, value, onChange, addTags, popular = [], placeholder, hint, error }: TagInputProps) {
  const id = useId();
  const [text, setText] = useState('');
  const add = (typed: string) => onChange(addTags(typed, value));
  const addText = () => {
    add(text);
    setText('');
  };
  const offered = popular.filter((tag) => !value.includes(tag));
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      <div className="mt-1.5 flex gap-2">
        <input
          id={id}
          value={text}
          maxLength={50}
          placeholder={placeholder}
          aria-describedby={describedBy || undefined}
          aria-invalid={error ? true : undefined}
          className={controlClass(Boolean(error))}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            // Enter adds the tag instead of submitting the form.
            if (event.key === 'Enter') {
              event.preventDefault();
              addText();
            }
          }}
        />
        <Button variant="secondary" icon={Plus} onClick={addText} disabled={text.trim() === ''}>
          Add
        </Button>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-stone-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      )}
      {value.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Chosen tags" data-testid="tag-list">
          {value.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-1 pr-1 pl-3 text-sm font-medium text-stone-800"
            >
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
