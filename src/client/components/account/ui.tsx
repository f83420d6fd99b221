import { CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

// Form pieces shared by the account screens: every field has a visible label, errors are tied to
// their field (aria-invalid + aria-describedby), and buttons show when they are busy.

export const primaryButton =
  'inline-flex h-11 items-center justify-center gap-2 rounded-full bg-stone-900 px-6 text-sm font-semibold text-white transition hover:bg-stone-700 disabled:cursor-not-allowed disabled:opacity-60';
export const secondaryButton =
  'inline-flex h-11 items-center justify-center gap-2 rounded-full border border-stone-300 bg-white px-6 text-sm font-semibold text-stone-800 transition hover:border-stone-400 hover:bg-stone-50 disabled:cursor-not-allowed disabled:opacity-60';
export const textLink = 'rounded-sm font-semibold text-accent-700 underline-offset-4 hover:text-accent-800 hover:underline';

const inputBase =
  'block w-full rounded-lg border bg-white px-3.5 py-2.5 text-base text-stone-900 shadow-xs transition placeholder:text-stone-400 focus:ring-3 focus:outline-none read-only:bg-stone-50 read-only:text-stone-600 sm:text-sm';
const inputOk = 'border-stone-300 focus:border-accent-600 focus:ring-accent-600/20';
const inputError = 'border-red-600 focus:border-red-600 focus:ring-red-600/20';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The field's own error message, shown under it. */
  error?: string | undefined;
  /** Marks the field invalid when its message is shown elsewhere (a form-level banner with this id). */
  invalidDescribedBy?: string | undefined;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ label, error, invalidDescribedBy, hint, className, ref, required, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = Boolean(error) || Boolean(invalidDescribedBy);
  const describedBy = [hint && hintId, error && errorId, invalidDescribedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <div className="flex gap-1 text-sm font-medium">
        <label htmlFor={id} className="text-stone-800">
          {label}
        </label>
        {/* Outside the label, so the field's name stays the label alone; aria-required says it. */}
        {required && (
          <span className="text-red-700" aria-hidden="true">
            *
          </span>
        )}
      </div>
      <input
        {...input}
        ref={ref}
        id={id}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={`mt-1.5 ${inputBase} ${invalid ? inputError : inputOk}`}
      />
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-stone-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A message box above a form: an error (role alert) or a success (role status). */
export function FormMessage({ id, kind, children }: { id?: string; kind: 'error' | 'success'; children: ReactNode }) {
  const Icon = kind === 'error' ? CircleAlert : CircleCheck;
  return (
    <div
      id={id}
      role={kind === 'error' ? 'alert' : 'status'}
      data-testid={`form-${kind}`}
      className={`flex items-start gap-2.5 rounded-lg border px-3.5 py-3 text-sm ${
        kind === 'error' ? 'border-red-200 bg-red-50 text-red-800' : 'border-emerald-200 bg-emerald-50 text-emerald-800'
      }`}
    >
      <Icon className="mt-px size-4.5 shrink-0" aria-hidden="true" />
      <p>{children}</p>
    </div>
  );
}

export function SubmitButton({ busy, busyLabel, children, className = '' }: { busy: boolean; busyLabel: string; children: ReactNode; className?: string }) {
  return (
    <button type="submit" className={`${primaryButton} ${className}`} disabled={busy}>
      {busy && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
      {busy ? busyLabel : children}
    </button>
  );
}

/** A quiet centered spinner with text, for a screen waiting on its data. */
export function LoadingBlock({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2.5 py-16 text-sm text-stone-600">
      <LoaderCircle className="size-5 animate-spin text-stone-400" aria-hidden="true" />
      {label}
    </div>
  );
}
