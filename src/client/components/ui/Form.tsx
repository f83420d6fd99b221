import { CircleAlert, CircleCheck } from 'lucide-react';
import type { FormHTMLAttributes, ReactNode } from 'react';
import {
  FormProvider,
  useFormState,
  type FieldValues,
  type SubmitErrorHandler,
  type SubmitHandler,
  type UseFormReturn,
} from 'react-hook-form';
import { Button } from './Button';

// A react-hook-form form whose fields (fields.tsx) register themselves by name:
//
//   const form = useForm({ resolver: zodResolver(schema), defaultValues });
//   <Form form={form} onSubmit={(values) => save.mutateAsync(values)}>
//     <TextField name="email" label="Email address" />
//     <SubmitButton busyLabel="Saving...">Save</SubmitButton>
//   </Form>
//
// The browser's own validation is off unless asked for: the shared zod schema speaks the spec's messages.

interface FormProps<TValues extends FieldValues, TOutput> extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'onInvalid'> {
  form: UseFormReturn<TValues, unknown, TOutput>;
  onSubmit: SubmitHandler<TOutput>;
  onInvalid?: SubmitErrorHandler<TValues>;
  /** Lets the browser check required fields and formats first (the contact form, docs/PRODUCT.md § Validation). */
  browserValidation?: boolean;
}

export function Form<TValues extends FieldValues, TOutput>({
  form,
  onSubmit,
  onInvalid,
  browserValidation = false,
  children,
  ...rest
}: FormProps<TValues, TOutput>) {
  return (
    <FormProvider {...form}>
      <form {...rest} noValidate={!browserValidation} onSubmit={(event) => void form.handleSubmit(onSubmit, onInvalid)(event)}>
        {children}
      </form>
    </FormProvider>
  );
}

/** The form's submit button: busy while the submit handler runs (or while `busy`), with the spec's busy text. */
export function SubmitButton({
  busy = false,
  busyLabel,
  children,
  className,
  variant = 'primary',
  size = 'lg',
}: {
  busy?: boolean;
  busyLabel: string;
  children: ReactNode;
  className?: string;
  variant?: 'primary' | 'accent';
  size?: 'md' | 'lg' | 'xl';
}) {
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant={variant} size={size} busy={busy || isSubmitting} busyLabel={busyLabel} className={className}>
      {children}
    </Button>
  );
}

/** A message box above or below a form: an error (role alert) or a success (role status). */
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
