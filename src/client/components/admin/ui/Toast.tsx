import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

// The spec's alerts in the admin area, as accessible toasts (ARCHITECTURE § Client). The admin
// layout mounts <ToastProvider>; any admin screen then calls:
//
//   const toast = useToast();
//   toast.success('Settings saved successfully!');
//   toast.error(`Error saving plan: ${error.message}`);
//
// Successes are announced politely (role status), errors at once (role alert). Each toast closes
// itself after a while, or with its close button.

export interface Toaster {
  success: (text: string) => void;
  error: (text: string) => void;
}

interface ToastItem {
  id: number;
  kind: 'success' | 'error';
  text: string;
}

const SUCCESS_MS = 5000;
const ERROR_MS = 8000;
/** Older toasts give way when more pile up. */
const MAX_VISIBLE = 3;

const ToastContext = createContext<Toaster | null>(null);

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);
  const push = useCallback((kind: ToastItem['kind'], text: string) => {
    const id = nextId++;
    setToasts((list) => [...list, { id, kind, text }].slice(-MAX_VISIBLE));
  }, []);
  const toaster = useMemo<Toaster>(() => ({ success: (text) => push('success', text), error: (text) => push('error', text) }), [push]);

  return (
    <ToastContext.Provider value={toaster}>
      {children}
      <div className="pointer-events-none fixed inset-x-3 bottom-3 z-[60] flex flex-col items-stretch gap-2 sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-96">
        {/* Both live regions stay in the page, so screen readers announce what appears in them. */}
        <div role="status" aria-live="polite" className="flex flex-col gap-2">
          {toasts
            .filter((toast) => toast.kind === 'success')
            .map((toast) => (
              <ToastCard key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
        </div>
        <div role="alert" className="flex flex-col gap-2">
          {toasts
            .filter((toast) => toast.kind === 'error')
            .map((toast) => (
              <ToastCard key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

/** The admin layout's toaster; outside a ToastProvider this throws, so a missing provider shows at once. */
export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('useToast() needs a <ToastProvider> (the admin layout mounts one)');
  return toaster;
}

function ToastCard({ toast, onDismiss }: { toast: ToastItem; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = window.setTimeout(() => onDismiss(toast.id), toast.kind === 'success' ? SUCCESS_MS : ERROR_MS);
    return () => window.clearTimeout(timer);
  }, [toast, onDismiss]);
  const success = toast.kind === 'success';
  const Icon = success ? CircleCheck : CircleAlert;
  return (
    <div
      data-testid={success ? 'toast-success' : 'toast-error'}
      className={`pointer-events-auto flex items-start gap-3 rounded-xl border bg-white px-4 py-3.5 shadow-lg ring-1 ring-black/5 ${
        success ? 'border-emerald-200' : 'border-red-200'
      }`}
    >
      <Icon className={`mt-0.5 size-5 shrink-0 ${success ? 'text-emerald-600' : 'text-red-600'}`} aria-hidden="true" />
      <p className="flex-1 text-sm font-medium break-words text-stone-900">{toast.text}</p>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        className="-m-1 inline-flex size-7 shrink-0 items-center justify-center rounded-full text-stone-600 hover:bg-stone-100 hover:text-stone-900"
        aria-label="Dismiss"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
