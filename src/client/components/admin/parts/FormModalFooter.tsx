import type { ComponentProps } from 'react';
import { Button } from '../../ui/Button';

// The footer of an admin form modal (plans, artwork): Cancel, which cannot close the modal while
// it saves, and the submit button of the form in the modal's body (tied to it by `formId`).
//
//   <Modal footer={<FormModalFooter formId={formId} saving={saving} onCancel={onClose} busyLabel="Saving...">Create Plan</FormModalFooter>}>

type SubmitProps = Pick<ComponentProps<typeof Button>, 'variant' | 'busyLabel' | 'disabled' | 'children'>;

export function FormModalFooter({
  formId,
  saving,
  onCancel,
  ...submit
}: SubmitProps & { formId: string; saving: boolean; onCancel: () => void }) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
      <Button type="submit" form={formId} busy={saving} {...submit} />
    </>
  );
}
