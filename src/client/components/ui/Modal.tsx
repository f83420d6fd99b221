import { X } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { iconButtonClass } from './Button';
import { useToastLayer } from './Toast';

// A modal on the native <dialog> element opened with showModal(): the rest of the page becomes
// inert (focus stays inside), Escape cancels, and focus returns to where it was on close.
//
//   {open && <Modal title="Edit plan" onClose={() => setOpen(false)}>...form...</Modal>}
//
// Render it only while open; unmounting closes it.

export interface ModalProps {
  title: string;
  /** Called for Escape, the close button and a click on the backdrop (unless `busy`). */
  onClose: () => void;
  /** The body; a confirmation may have none (title, description and buttons only). */
  children?: ReactNode;
  /** 'alertdialog' for confirmations that need an answer. */
  role?: 'dialog' | 'alertdialog';
  /** Text read after the title, e.g. the question of a confirmation. */
  description?: ReactNode;
  /** While true the dialog cannot be dismissed (a save is running). */
  busy?: boolean;
  size?: 'sm' | 'md' | 'lg';
  /** Buttons at the bottom, right-aligned (stacked on small screens). */
  footer?: ReactNode;
}

const WIDTHS = { sm: 'max-w-md', md: 'max-w-xl', lg: 'max-w-3xl' } as const;

export function Modal({ title, onClose, children, role = 'dialog', description, busy = false, size = 'md', footer }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const toastLayer = useRef<HTMLDivElement>(null);
  // The latest props, for the event handlers of a dialog that stays open across renders.
  const latest = useRef({ onClose, busy });
  useLayoutEffect(() => {
    latest.current = { onClose, busy };
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    return () => {
      dialog.close();
      // The opener may be gone (e.g. the row was deleted); then focus stays where the browser puts it.
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // After showModal (effects run in order): the toasts move into the open dialog.
  useToastLayer(toastLayer);

  const requestClose = () => {
    if (!latest.current.busy) latest.current.onClose();
  };

  return (
    <dialog
      ref={ref}
      role={role}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        // Escape: React state decides whether the dialog goes away.
        event.preventDefault();
        requestClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) requestClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] ${WIDTHS[size]} max-h-[calc(100dvh-2rem)] overflow-hidden rounded-2xl bg-white p-0 text-stone-900 shadow-2xl backdrop:bg-stone-950/50`}
    >
      <div className="flex max-h-[calc(100dvh-2rem)] flex-col">
        <div className={`flex items-start gap-3 px-5 py-4 ${children ? 'border-b border-stone-200' : ''}`}>
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="font-display text-lg font-bold text-stone-950">
              {title}
            </h2>
            {description && (
              <div id={descriptionId} className="mt-1 text-sm text-stone-600">
                {description}
              </div>
            )}
          </div>
          <button type="button" className={`${iconButtonClass()} -mr-2`} onClick={requestClose} disabled={busy} aria-label="Close">
            <X className="size-5" aria-hidden="true" />
          </button>
        </div>
        <div ref={toastLayer} className="contents" />
        {children && <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>}
        {footer && (
          <div
            className={`flex flex-col-reverse gap-2 px-5 py-3 sm:flex-row sm:justify-end ${children ? 'border-t border-stone-200' : 'pt-0 pb-5'}`}
          >
            {footer}
          </div>
        )}
      </div>
    </dialog>
  );
}
