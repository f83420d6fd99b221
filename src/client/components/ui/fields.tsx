import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { useFormContext, useFormState, type RegisterOptions, type UseFormRegisterReturn, type UseFormReturn } from 'react-hook-form';

// Labelled form fields. Inside a <Form> a field with a `name` is registered with react-hook-form
// and shows its own error (the client's rules and the server's field errors) under it:
//
//   <Form form={form} onSubmit={save}>
//     <TextField name="first_name" label="First name" required />
//   </Form>
//
// Without a form (a search box, a read-only value) the same field takes value/onChange as usual.
// Every field has a visible label, and its hint and error are tied to it (aria-describedby).

interface FieldProps {
  label: string;
  /** A form field's name (dotted for nested values, e.g. "shipping_address.city"). */
  name?: string;
  /** Options for register(), e.g. onChange to derive another field. */
  registerOptions?: RegisterOptions;
  /** An error shown under the field, for fields outside a form. */
  error?: string | undefined;
  /** Marks the field invalid when its message is shown elsewhere (a form-level message with this id). */
  invalidDescribedBy?: string | undefined;
  /** False when the form shows every message in one box (the sign-in form) instead of under fields. */
  showError?: boolean;
  /** The label is read to screen readers only, where the page makes the field's purpose plain. */
  hideLabel?: boolean;
  hint?: ReactNode;
  /** Classes of the wrapper (label + control + messages), e.g. a grid span. */
  className?: string;
  required?: boolean;
}

const CONTROL =
  'block w-full rounded-lg border bg-white px-3.5 py-2.5 text-base text-stone-900 shadow-xs transition placeholder:text-stone-400 focus:ring-3 focus:outline-none read-only:bg-stone-50 read-only:text-stone-600 disabled:bg-stone-100 sm:text-sm';
const CONTROL_OK = 'border-stone-300 focus:border-accent-600 focus:ring-accent-600/20';
const CONTROL_ERROR = 'border-red-600 focus:border-red-600 focus:ring-red-600/20';

/** An input's classes, for controls built by hand (e.g. a search box with an icon). */
export const controlClass = (invalid = false) => `${CONTROL} ${invalid ? CONTROL_ERROR : CONTROL_OK}`;

/** What a field's control element receives: its id and aria ties, and the form's registration when bound. */
interface ControlProps extends Partial<UseFormRegisterReturn> {
  id: string;
  required: boolean | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface Binding {
  registration: UseFormRegisterReturn | undefined;
  error: string | undefined;
}

interface FrameProps extends FieldProps {
  /** Checkboxes put their label after the control. */
  layout?: 'stacked' | 'inline';
  children: (control: ControlProps) => ReactNode;
}

/** A field's label, control, hint and error; bound to the surrounding form when it has a name. */
function Field(props: FrameProps) {
  const form = useFormContext() as UseFormReturn | null;
  if (!form || !props.name) return <FieldFrame {...props} binding={{ registration: undefined, error: undefined }} />;
  return <BoundField {...props} form={form} name={props.name} />;
}

function BoundField({ form, name, ...props }: FrameProps & { form: UseFormReturn; name: string }) {
  // Subscribes to this field's own error only, so one field's message does not re-render the others.
  const state = useFormState({ control: form.control, name });
  const message = form.getFieldState(name, state).error?.message;
  const binding = { registration: form.register(name, props.registerOptions), error: typeof message === 'string' ? message : undefined };
  return <FieldFrame {...props} name={name} binding={binding} />;
}

function FieldFrame({
  label,
  name,
  error,
  invalidDescribedBy,
  showError = true,
  hideLabel = false,
  hint,
  className,
  required,
  layout = 'stacked',
  children,
  binding,
}: FrameProps & { binding: Binding }) {
  const id = useId();
  const shown = showError ? (error ?? binding.error) : undefined;
  const describedBy = [hint ? `${id}-hint` : '', shown ? `${id}-error` : '', invalidDescribedBy ?? ''].filter(Boolean).join(' ');
  const control = children({
    name,
    ...binding.registration,
    id,
    required,
    'aria-invalid': shown || invalidDescribedBy ? true : undefined,
    'aria-describedby': describedBy || undefined,
  });
  const labelElement = (
    <label htmlFor={id} className="text-stone-800">
      {label}
    </label>
  );
  const messages = (
    <>
      {hint && (
        <p id={`${id}-hint`} className={`text-xs text-stone-600 ${layout === 'stacked' ? 'mt-1.5' : ''}`}>
          {hint}
        </p>
      )}
      {shown && (
        <p id={`${id}-error`} className={`text-sm text-red-700 ${layout === 'stacked' ? 'mt-1.5' : ''}`} data-testid="field-error">
          {shown}
        </p>
      )}
    </>
  );
  if (layout === 'inline') {
    return (
      <div className={`flex items-start gap-3 ${className ?? ''}`}>
        {control}
        <div className="text-sm font-medium">
          {labelElement}
          {messages}
        </div>
      </div>
    );
  }
  return (
    <div className={className}>
      <div className={hideLabel ? 'sr-only' : 'flex gap-1 text-sm font-medium'}>
        {labelElement}
        {/* Outside the label, so the field's name stays the label alone; the control's required says it. */}
        {required && (
          <span className="text-red-700" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {control}
      {messages}
    </div>
  );
}

/** The props of one field kind: the field's own, plus its element's attributes. */
type Props<Attributes, E> = FieldProps & Omit<Attributes, 'name' | 'id' | 'required'> & { ref?: Ref<E> };

function fieldProps<T extends FieldProps>({
  label,
  name,
  registerOptions,
  error,
  invalidDescribedBy,
  showError,
  hideLabel,
  hint,
  className,
  required,
  ...rest
}: T) {
  return [{ label, name, registerOptions, error, invalidDescribedBy, showError, hideLabel, hint, className, required }, rest] as const;
}

/** The attributes a field kind's element takes from the caller's props: all but the field's own and the ref. */
type ElementAttributes<T> = Omit<Omit<T, keyof FieldProps>, 'ref'>;

/**
 * One field kind: its own props (label, hint, ...) go to the frame; the rest, with the control's id,
 * aria ties and form registration, to the element that `element` draws, told whether it is invalid.
 * A bound element takes the form's ref; an unbound one the caller's.
 */
function renderField<T extends FieldProps & { ref?: unknown }>(
  props: T,
  element: (attributes: ElementAttributes<T> & Omit<ControlProps, 'ref'> & { ref: T['ref'] | undefined }, invalid: boolean) => ReactNode,
  layout?: FrameProps['layout'],
) {
  const [field, { ref, ...attributes }] = fieldProps(props);
  return (
    <Field {...field} layout={layout}>
      {(control) => element({ ...attributes, ...control, ref: (control.ref as T['ref']) ?? ref }, Boolean(control['aria-invalid']))}
    </Field>
  );
}

export function TextField(props: Props<InputHTMLAttributes<HTMLInputElement>, HTMLInputElement>) {
  return renderField(props, (input, invalid) => <input {...input} className={`mt-1.5 ${controlClass(invalid)}`} />);
}

type NumberFieldProps = Omit<Props<InputHTMLAttributes<HTMLInputElement>, HTMLInputElement>, 'type' | 'registerOptions'> & {
  /** Whole numbers (a count): the numeric keypad and steps of 1, instead of amounts in cents. */
  whole?: boolean;
  /** An empty box is saved as null (e.g. "no threshold") instead of NaN, which the schema refuses. */
  optional?: boolean;
};

const emptyAsNull = (value: string) => (value === '' || value === null ? null : Number(value));

/**
 * A number box whose form value is a number, never negative: an amount (decimal keypad, steps of
 * 0.01) unless `whole`. Other input attributes (`max`, `hint`, ...) pass through.
 */
export function NumberField({ whole = false, optional = false, ...props }: NumberFieldProps) {
  return (
    <TextField
      type="number"
      inputMode={whole ? 'numeric' : 'decimal'}
      min={0}
      step={whole ? 1 : 0.01}
      registerOptions={optional ? { setValueAs: emptyAsNull } : { valueAsNumber: true }}
      {...props}
    />
  );
}

export function TextArea(props: Props<TextareaHTMLAttributes<HTMLTextAreaElement>, HTMLTextAreaElement>) {
  return renderField(props, (textarea, invalid) => <textarea {...textarea} className={`mt-1.5 ${controlClass(invalid)}`} />);
}

export function Select({ children, ...props }: Props<SelectHTMLAttributes<HTMLSelectElement>, HTMLSelectElement>) {
  return renderField(props, (select, invalid) => (
    <select {...select} className={`mt-1.5 ${controlClass(invalid)} pr-8`}>
      {children}
    </select>
  ));
}

/** A checkbox with its label on the right, and an optional hint and error under the label. */
export function Checkbox(props: Props<Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>, HTMLInputElement>) {
  return renderField(
    props,
    (input) => <input {...input} type="checkbox" className="mt-0.5 size-4.5 shrink-0 rounded border-stone-400 accent-accent-700" />,
    'inline',
  );
}
