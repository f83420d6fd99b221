import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { controlClass } from './fields';

/** How long typing pauses before the search runs. */
const SEARCH_DEBOUNCE_MS = 300;

interface SearchFieldProps {
  label: string;
  /** Shown to screen readers only, when the field's purpose is plain from the page. */
  hideLabel?: boolean;
  /** The search in force (e.g. from the URL); the box follows it when it changes from outside. */
  value: string;
  /** Called with the trimmed text after a short pause in typing, or at once on Enter. */
  onSearch: (value: string) => void;
  placeholder?: string;
  className?: string;
}

/** A search box for server-side lists: typing stays instant, the query runs once typing pauses. */
export function SearchField({ label, hideLabel = false, value, onSearch, placeholder, className }: SearchFieldProps) {
  const id = useId();
  const [text, setText] = useState(value);
  const [seenValue, setSeenValue] = useState(value);
  // The search changed from outside (back button, a link): show its text.
  if (value !== seenValue) {
    setSeenValue(value);
    if (value !== text.trim()) setText(value);
  }
  useEffect(() => {
    const next = text.trim();
    if (next === value) return;
    const timer = window.setTimeout(() => onSearch(next), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value, onSearch]);

  return (
    <div className={className}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'block text-sm font-medium text-stone-800'}>
        {label}
      </label>
      <div className={`relative ${hideLabel ? '' : 'mt-1.5'}`}>
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400" aria-hidden="true" />
        <input
          id={id}
          type="search"
          value={text}
          maxLength={200}
          placeholder={placeholder}
          className={`${controlClass()} pl-9`}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onSearch(text.trim());
          }}
        />
      </div>
    </div>
  );
}
