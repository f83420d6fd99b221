import { useEffect, useRef, type ReactNode } from 'react';
import { Modal } from './Modal';
import { Button } from './Button';

// An accessible confirmation (role alertdialog, focus kept inside, Escape cancels). The safe
// choice, Cancel, has the focus first.
//
//   {pending && (
//     <ConfirmDialog
//       title="Delete product?"
//       message={`"${pending.name}" will be removed from the store.`}
//       confirmLabel="Delete"
//       busyLabel="Deleting..."
//       busy={remove.isPending}
//       onConfirm={() => remove.mutate({ id: pending.id })}
//       onCancel={() => setPending(null)}
//     />
//   )}

export interface ConfirmDialogProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while `busy`. */
  busyLabel?: string;
  busy?: boolean;
  /** 'danger' (red confirm button) for deletions, the default; 'default' for anything else. */
  tone?: 'danger' | 'default';
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  busyLabel,
  busy = false,
  tone = 'danger',
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <Modal
      role="alertdialog"
      size="sm"
      title={title}
      description={message}
      onClose={onCancel}
      busy={busy}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant={tone === 'danger' ? 'danger' : 'primary'} onClick={onConfirm} busy={busy} busyLabel={busyLabel}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
