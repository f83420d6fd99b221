import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { useEffect, useSyncExternalStore, type RefObject } from 'react';
import { createPortal } from 'react-dom';

// The spec's alerts, as accessible toasts (docs/ARCHITECTURE.md § Client). One <Toaster/> is mounted at
// the root; any screen calls
//
//   toast.success('Settings saved successfully!');
//   toast.error(`Error saving plan: ${message}`);
//
// Successes are announced politely (role status), errors at once (role alert). Each toast closes
// itself after a while, with its close button, or with Escape (the newest; while a dialog is open,
// Escape is the dialog's, and its toasts stay on the page after it closes).
//
// An open modal dialog makes the rest of the page inert and dims it: a toast there could be
// neither read by a screen reader nor dismissed. So while one is open the toasts show inside it,
// in the place it gives them with useToastLayer.

interface ToastItem {
  id: number;
  kind: 'success' | 'error';
  text: string;
}

const SUCCESS_MS = 5000;
const ERROR_MS = 8000;
/** Older toasts give way when more pile up. */
const MAX_VISIBLE = 3;

let items: readonly ToastItem[] = [];
let nextId = 1;
/** The places open modal dialogs give toasts, the topmost last. */
let layers: readonly HTMLElement[] = [];
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

function setItems(next: readonly ToastItem[]) {
  items = next;
  notify();
}

const push = (kind: ToastItem['kind'], text: string) => setItems([...items, { id: nextId++, kind, text }].slice(-MAX_VISIBLE));
const dismiss = (id: number) => setItems(items.filter((item) => item.id !== id));

export const toast = {
  success: (text: string) => push('success', text),
  error: (text: string) => push('error', text),
};

/** A modal dialog's place for toasts while it is open (the element must stay empty otherwise). */
export function useToastLayer(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const layer = ref.current;
    if (!layer) return;
    layers = [...layers, layer];
    notify();
    return () => {
      layers = layers.filter((open) => open !== layer);
      notify();
    };
  }, [ref]);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const NONE: readonly ToastItem[] = [];

export function Toaster() {
  const shown = useSyncExternalStore(
    subscribe,
    () => items,
    () => NONE,
  );
  const topLayer = useSyncExternalStore(
    subscribe,
    () => layers.at(-1),
    () => undefined,
  );
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const last = items.at(-1);
      if (event.key === 'Escape' && last && layers.length === 0) dismiss(last.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // The page's regions stay mounted under a dialog, so a toast shown as it closes is announced.
  return (
    <>
      <ToastRegions shown={topLayer ? NONE : shown} />
      {topLayer && createPortal(<ToastRegions shown={shown} inDialog />, topLayer)}
    </>
  );
}

/**
 * On the page, in a corner above everything. `inDialog`, in the dialog's own layout under its title
 * bar: floating over a dialog, toasts would cover its Close button or its footer's buttons.
 */
function ToastRegions({ shown, inDialog = false }: { shown: readonly ToastItem[]; inDialog?: boolean }) {
  // Between the two regions only while both show something: an empty one takes no room.
  const bothKinds = new Set(shown.map((item) => item.kind)).size === 2;
  return (
    <div
      className={`flex flex-col items-stretch ${bothKinds ? 'gap-2' : ''} ${
        inDialog
          ? `shrink-0 px-5 ${shown.length > 0 ? 'pt-3' : ''}`
          : 'pointer-events-none fixed inset-x-3 bottom-3 z-[60] sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-96'
      }`}
    >
      {/* Both live regions stay in the page, so screen readers announce what appears in them. */}
      <div role="status" aria-live="polite" className="flex flex-col gap-2">
        {shown
          .filter((item) => item.kind === 'success')
          .map((item) => (
            <ToastCard key={item.id} item={item} />
          ))}
      </div>
      <div role="alert" className="flex flex-col gap-2">
        {shown
          .filter((item) => item.kind === 'error')
          .map((item) => (
            <ToastCard key={item.id} item={item} />
          ))}
      </div>
    </div>
  );
}

function ToastCard({ item }: { item: ToastItem }) {
  useEffect(() => {
    const timer = window.setTimeout(() => dismiss(item.id), item.kind === 'success' ? SUCCESS_MS : ERROR_MS);
    return () => window.clearTimeout(timer);
  }, [item]);
  const success = item.kind === 'success';
  const Icon = success ? CircleCheck : CircleAlert;
  return (
    <div
      data-testid={success ? 'toast-success' : 'toast-error'}
      className={`pointer-events-auto flex items-start gap-3 rounded-xl border bg-white px-4 py-3.5 shadow-lg ring-1 ring-black/5 ${
        success ? 'border-emerald-200' : 'border-red-200'
      }`}
    >
      <Icon className={`mt-0.5 size-5 shrink-0 ${success ? 'text-emerald-600' : 'text-red-600'}`} aria-hidden="true" />
      <p className="flex-1 text-sm font-medium break-words text-stone-900">{item.text}</p>
      <button
        type="button"
        onClick={() => dismiss(item.id)}
        className="-m-1 inline-flex size-7 shrink-0 items-center justify-center rounded-full text-stone-600 hover:bg-stone-100 hover:text-stone-900"
        aria-label="Dismiss"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
