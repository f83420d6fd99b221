import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';

// The spec's "alerts" on the settings screen, as an accessible toast (ARCHITECTURE § Client): the
// live regions are always in the page so screen readers announce what appears in them.

export interface ToastMessage {
  kind: 'success' | 'error';
  text: string;
}

const TOAST_MS = 6000;

export function useToast() {
  const [toast, setToast] = useState<(ToastMessage & { id: number }) | null>(null);
  const show = useCallback((message: ToastMessage) => setToast({ ...message, id: Date.now() }), []);
  const dismiss = useCallback(() => setToast(null), []);
  return { toast, show, dismiss };
}

export function Toast({ toast, onDismiss }: { toast: (ToastMessage & { id: number }) | null; onDismiss: () => void }) {
  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(onDismiss, TOAST_MS);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onDismiss();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('keydown', onKey);
    };
  }, [toast, onDismiss]);

  return (
    <div className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-center sm:inset-x-auto sm:right-6 sm:bottom-6">
      <div role="status" aria-atomic="true" className="w-full sm:w-96">
        {toast?.kind === 'success' && <ToastCard key={toast.id} toast={toast} onDismiss={onDismiss} />}
      </div>
      <div role="alert" aria-atomic="true" className="w-full empty:hidden sm:w-96">
        {toast?.kind === 'error' && <ToastCard key={toast.id} toast={toast} onDismiss={onDismiss} />}
      </div>
    </div>
  );
}

function ToastCard({ toast, onDismiss }: { toast: ToastMessage; onDismiss: () => void }) {
  const success = toast.kind === 'success';
  const Icon = success ? CircleCheck : CircleAlert;
  return (
    <div
      data-testid="toast"
      className={`pointer-events-auto flex items-start gap-3 rounded-xl border bg-white px-4 py-3.5 shadow-lg ring-1 ring-black/5 ${
        success ? 'border-emerald-200' : 'border-red-200'
      }`}
    >
      <Icon className={`mt-0.5 size-5 shrink-0 ${success ? 'text-emerald-600' : 'text-red-600'}`} aria-hidden="true" />
      <p className="flex-1 text-sm font-medium text-stone-900">{toast.text}</p>
      <button
        type="button"
        onClick={onDismiss}
        className="-m-1 inline-flex size-7 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-800"
        aria-label="Dismiss"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
