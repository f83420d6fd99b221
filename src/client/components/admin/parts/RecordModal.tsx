import type { ReactNode } from 'react';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { LoadingState } from '../../ui/states';

/** What a record's query says while the modal is open. */
interface RecordQuery<T> {
  isPending: boolean;
  data: T | undefined;
  error: { message: string } | null;
}

/** One record opened from an admin list (an order, a member): loading, not found, or the record, with Close. */
export function RecordModal<T>({
  title,
  description,
  query,
  loadingLabel,
  notFoundLabel,
  onClose,
  children,
}: {
  title: string;
  description?: string | undefined;
  query: RecordQuery<T>;
  loadingLabel: string;
  notFoundLabel: string;
  onClose: () => void;
  children: (record: T) => ReactNode;
}) {
  return (
    <Modal
      title={title}
      description={description}
      onClose={onClose}
      size="lg"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {query.isPending ? (
        <LoadingState label={loadingLabel} />
      ) : !query.data ? (
        <p className="py-8 text-center text-sm text-stone-600">{query.error?.message ?? notFoundLabel}</p>
      ) : (
        children(query.data)
      )}
    </Modal>
  );
}
