import { zodResolver } from '@hookform/resolvers/zod';
import { CircleAlert, CircleCheck, Send } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation } from '../../mutations';
import { CONTACT_SUCCESS_MS } from '../../../shared/constants';
import { contactInput, type ContactInput } from '../../../shared/schemas/contact';
import { errorMessage, showServerErrors } from '../../errors';
import { useTRPC } from '../../trpc';
import { TextArea, TextField } from '../ui/fields';
import { Form, SubmitButton } from '../ui/Form';

const EMPTY_FORM: ContactInput = { name: '', email: '', subject: '', message: '' };
const SUBMIT_FAILED = 'Failed to submit contact form. Please try again.';

export function ContactForm({ initialSubject }: { initialSubject: string }) {
  const trpc = useTRPC();
  const submit = useMutation(trpc.contact.submit.mutationOptions());
  const form = useForm<ContactInput>({
    resolver: zodResolver(contactInput),
    defaultValues: { ...EMPTY_FORM, subject: initialSubject },
  });

  // The success banner goes away on its own after 5 seconds (docs/PRODUCT.md § States and Limits). It stands above the
  // fields, out of sight of whoever scrolled down to send: it is brought into view.
  const { isSuccess, reset: clearResult } = submit;
  const successBanner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!isSuccess) return;
    successBanner.current?.scrollIntoView({ block: 'nearest' });
    const timer = setTimeout(clearResult, CONTACT_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [isSuccess, clearResult]);

  // Required fields and the email format are checked by the browser first (docs/PRODUCT.md § Validation); the shared
  // schema then catches what it lets through (blank after trimming), and the server's field
  // errors land under their fields.
  const onSubmit = (values: ContactInput) =>
    submit.mutate(values, { onSuccess: () => form.reset(EMPTY_FORM), onError: (error) => showServerErrors(form, error) });

  return (
    <Form form={form} onSubmit={onSubmit} browserValidation aria-labelledby="contact-form-heading" className="space-y-6">
      <div>
        <h2 id="contact-form-heading" className="font-display text-xl font-bold text-stone-950">
          Send us a message
        </h2>
        <p className="mt-1 text-sm text-stone-600">All fields are required.</p>
      </div>

      <div role="status" aria-live="polite">
        {submit.isSuccess && (
          <div
            ref={successBanner}
            className="flex scroll-mt-24 gap-3 rounded-xl border border-green-200 bg-green-50 p-4 text-green-900"
            data-testid="contact-success"
          >
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
          <p className="text-sm font-medium">{errorMessage(submit.error, SUBMIT_FAILED)}</p>
        </div>
      )}

      <div className="grid gap-6 sm:grid-cols-2">
        <TextField name="name" label="Your Name" type="text" autoComplete="name" required />
        <TextField name="email" label="Email Address" type="email" autoComplete="email" required />
      </div>
      <TextField name="subject" label="Subject" type="text" required />
      <TextArea name="message" label="Message" rows={6} required className="[&_textarea]:resize-y" />

      <SubmitButton variant="accent" size="xl" busyLabel="Sending..." busy={submit.isPending} className="w-full sm:w-auto">
        <Send className="size-5" aria-hidden="true" />
        Send Message
      </SubmitButton>
    </Form>
  );
}
