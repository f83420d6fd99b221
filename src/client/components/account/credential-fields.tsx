import { TextField } from '../ui/fields';
import { FormMessage } from '../ui/Form';

// Fields the sign-in, reset and settings forms share, so each asks the same way.

export interface FormNotice {
  kind: 'success' | 'error';
  text: string;
}

/**
 * The sign-in forms' message above the fields and their email field, whose error is told in that
 * message (one place for the spec's texts) rather than under the field.
 */
export function EmailWithNotice({ notice, noticeId, invalid }: { notice: FormNotice | null; noticeId: string; invalid: boolean }) {
  return (
    <>
      {notice && (
        <FormMessage id={noticeId} kind={notice.kind}>
          {notice.text}
        </FormMessage>
      )}
      <TextField
        name="email"
        label="Email address"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        showError={false}
        invalidDescribedBy={invalid ? noticeId : undefined}
      />
    </>
  );
}

/** A new password and its confirmation, named `password` and `confirmPassword`. */
export function NewPasswordFields() {
  return (
    <>
      <TextField name="password" label="New password" type="password" autoComplete="new-password" required hint="At least 6 characters." />
      <TextField name="confirmPassword" label="Confirm new password" type="password" autoComplete="new-password" required />
    </>
  );
}
