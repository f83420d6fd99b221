import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { inputBase, inputError, inputOk } from './styles';

// Labelled form fields for the admin screens. Every field has a visible label; its error is tied
// to it (aria-invalid + aria-describedby). They take a `ref`, so react-hook-form's register() works:
//   <TextField label="Name" required error={errors.name?.message} {...register('name')} />

interface FieldFrameProps {
  id: string;
  label: string;
  required: boolean | undefined;
  hint: ReactNode;
  error: string | undefined;
  className: string | undefined;
  children: ReactNode;
}

function FieldFrame({ id, label, required, hint, error, className, children }: FieldFrameProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
        {required && (
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-stone-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700" data-testid="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** aria attributes that tie a control to its hint and error. */
function describe(id: string, hint: ReactNode, error: string | undefined) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined };
}

interface CommonProps {
  label: string;
  /** The field's message, shown under it. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Classes of the wrapper (label + control + messages), e.g. a grid span. */
  className?: string;
}

export function TextField({ label, error, hint, className, required, ref, ...input }: CommonProps & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error} className={className}>
      <input
        {...input}
        ref={ref}
        id={id}
        aria-required={required || undefined}
        {...describe(id, hint, error)}
        className={`mt-1.5 ${inputBase} ${error ? inputError : inputOk}`}
      />
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  className,
  required,
  ref,
  ...textarea
}: CommonProps & TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error} className={className}>
      <textarea
        {...textarea}
        ref={ref}
        id={id}
        aria-required={required || undefined}
        {...describe(id, hint, error)}
        className={`mt-1.5 ${inputBase} ${error ? inputError : inputOk}`}
      />
    </FieldFrame>
  );
}

export function SelectField({
  label,
  error,
  hint,
  className,
  required,
  ref,
  children,
  ...select
}: CommonProps & SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error} className={className}>
      <select
        {...select}
        ref={ref}
        id={id}
        aria-required={required || undefined}
        {...describe(id, hint, error)}
        className={`mt-1.5 ${inputBase} ${error ? inputError : inputOk} pr-8`}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

/** A checkbox with its label on the right and an optional hint under it. */
export function CheckboxField({
  label,
  hint,
  className,
  ref,
  ...input
}: Omit<CommonProps, 'error'> & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { ref?: Ref<HTMLInputElement> }) {
  const id = useId();
  return (
    <div className={`flex items-start gap-3 ${className ?? ''}`}>
      <input
        {...input}
        ref={ref}
        id={id}
        type="checkbox"
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-0.5 size-4.5 shrink-0 rounded border-stone-400 accent-accent-700"
      />
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-stone-800">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="text-xs text-stone-600">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
