import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { CircleAlert, CircleCheck, LoaderCircle, Send } from 'lucide-react';
import { useEffect, useId, type ReactNode } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { CONTACT_SUCCESS_MS } from '../../../shared/constants';
import { contactInput, type ContactInput } from '../../../shared/schemas/contact';
import { useTRPC } from '../../trpc';

const EMPTY_FORM: ContactInput = { name: '', email: '', subject: '', message: '' };
const SUBMIT_FAILED = 'Failed to submit contact form. Please try again.';

const fieldClass =
  'block w-full rounded-lg border border-stone-300 bg-white px-3.5 py-2.5 text-base text-stone-900 shadow-sm transition placeholder:text-stone-400 hover:border-stone-400 focus:border-accent-600 focus:ring-2 focus:ring-accent-600/20 focus:outline-none aria-[invalid=true]:border-red-600';

/** The server's message when it answered; a network failure has no useful text, so the spec's default shows. */
function submitErrorMessage(error: unknown): string {
  return error instanceof TRPCClientError && error.data && error.message ? error.message : SUBMIT_FAILED;
}

export function ContactForm({ initialSubject }: { initialSubject: string }) {
  const trpc = useTRPC();
  const submit = useMutation(trpc.contact.submit.mutationOptions());
  const form = useForm<ContactInput>({
    resolver: zodResolver(contactInput),
    defaultValues: { ...EMPTY_FORM, subject: initialSubject },
  });
  const { errors } = form.formState;

  // The success banner goes away on its own after 5 seconds (SPEC §4, §9).
  const { isSuccess, reset: clearResult } = submit;
  useEffect(() => {
    if (!isSuccess) return;
    const timer = setTimeout(clearResult, CONTACT_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [isSuccess, clearResult]);

  // Required fields and the email format are checked by the browser first (SPEC §5); the shared
  // schema then catches what it lets through (blank after trimming) with the server's messages.
  const onSubmit = form.handleSubmit((values) => {
    submit.mutate(values, { onSuccess: () => form.reset(EMPTY_FORM) });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} aria-labelledby="contact-form-heading" className="space-y-6">
      <div>
        <h2 id="contact-form-heading" className="font-display text-xl font-bold text-stone-950">
          Send us a message
        </h2>
        <p className="mt-1 text-sm text-stone-600">All fields are required.</p>
      </div>

      <div role="status" aria-live="polite">
        {submit.isSuccess && (
          <div className="flex gap-3 rounded-xl border border-green-200 bg-green-50 p-4 text-green-900" data-testid="contact-success">
            <CircleCheck className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden="true" />
            <div>
              <p className="font-semibold">Message Sent Successfully!</p>
              <p className="mt-1 text-sm">Thank you for contacting us. We'll get back to you as soon as possible.</p>
            </div>
          </div>
        )}
      </div>
      {submit.isError && (
        <div role="alert" className="flex gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800" data-testid="contact-error">
          <CircleAlert className="mt-0.5 size-5 shrink-0 text-red-700" aria-hidden="true" />
          <p className="text-sm font-medium">{submitErrorMessage(submit.error)}</p>
        </div>
      )}

      <div className="grid gap-6 sm:grid-cols-2">
        <Field label="Your Name" error={errors.name}>
          {(props) => <input {...props} {...form.register('name')} type="text" autoComplete="name" required className={fieldClass} />}
        </Field>
        <Field label="Email Address" error={errors.email}>
          {(props) => <input {...props} {...form.register('email')} type="email" autoComplete="email" required className={fieldClass} />}
        </Field>
      </div>
      <Field label="Subject" error={errors.subject}>
        {(props) => <input {...props} {...form.register('subject')} type="text" required className={fieldClass} />}
      </Field>
      <Field label="Message" error={errors.message}>
        {(props) => <textarea {...props} {...form.register('message')} rows={6} required className={`${fieldClass} resize-y`} />}
      </Field>

      <button
        type="submit"
        disabled={submit.isPending}
        className="inline-flex h-12 w-full items-center justify-center gap-2 rounded-full bg-accent-700 px-7 text-base font-semibold text-white shadow-sm transition hover:bg-accent-800 disabled:cursor-not-allowed disabled:opacity-70 sm:w-auto"
      >
        {submit.isPending ? (
          <>
            <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
            Sending...
          </>
        ) : (
          <>
            <Send className="size-5" aria-hidden="true" />
            Send Message
          </>
        )}
      </button>
    </form>
  );
}

interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** A visible label, the control, and its error message tied to it for screen readers. */
function Field({ label, error, children }: { label: string; error: FieldError | undefined; children: (props: ControlProps) => ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-semibold text-stone-800">
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': error ? errorId : undefined })}
      {error?.message && (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error.message}
        </p>
      )}
    </div>
  );
}
