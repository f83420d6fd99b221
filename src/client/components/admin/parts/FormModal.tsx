import { useId, type ReactNode } from 'react';
import type { FieldValues, SubmitErrorHandler, SubmitHandler, UseFormReturn } from 'react-hook-form';
import { Button, type ButtonVariant } from '../../ui/Button';
import { Form } from '../../ui/Form';
import { Modal, type ModalProps } from '../../ui/Modal';

// An admin form in a modal (plans, artwork): the form is the modal's body; the footer holds Cancel,
// which cannot close the modal while it saves, and the form's submit button (tied to it by id).
//
//   <FormModal title="New Plan" onClose={onClose} saving={saving} busyLabel="Saving..." submitLabel="Create Plan"
//     form={form} onSubmit={(values) => create.mutate(values)} className="space-y-4">
//     <TextField name="name" label="Name" required />
//   </FormModal>

interface FormModalProps<TValues extends FieldValues, TOutput> {
  title: string;
  size?: ModalProps['size'];
  onClose: () => void;
  saving: boolean;
  submitLabel: string;
  busyLabel: string;
  submitVariant?: ButtonVariant;
  /** Holds the submit button back (an upload running, a required field empty). */
  submitDisabled?: boolean;
  form: UseFormReturn<TValues, unknown, TOutput>;
  onSubmit: SubmitHandler<TOutput>;
  onInvalid?: SubmitErrorHandler<TValues>;
  /** The form's classes, which lay out its fields. */
  className: string;
  children: ReactNode;
}

export function FormModal<TValues extends FieldValues, TOutput>({
  title,
  size,
  onClose,
  saving,
  submitLabel,
  busyLabel,
  submitVariant,
  submitDisabled,
  form,
  onSubmit,
  onInvalid,
  className,
  children,
}: FormModalProps<TValues, TOutput>) {
  const formId = useId();
  const footer = (
    <>
      <Button variant="secondary" onClick={onClose} disabled={saving}>
        Cancel
      </Button>
      <Button type="submit" form={formId} busy={saving} variant={submitVariant} busyLabel={busyLabel} disabled={submitDisabled}>
        {submitLabel}
      </Button>
    </>
  );
  return (
    <Modal title={title} onClose={onClose} busy={saving} size={size} footer={footer}>
      <Form form={form} id={formId} onSubmit={onSubmit} onInvalid={onInvalid} className={className}>
        {children}
      </Form>
    </Modal>
  );
}
