import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { LoaderCircle, Send } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { emailFailedMessage, emailSentMessage, testEmailInput, type TestEmailInput } from '../../../../shared/schemas/admin-settings';
import { useTRPC } from '../../../trpc';
import { showFieldErrors } from '../categories/server-errors';
import { TextAreaField, TextField } from '../ui/fields';
import { card, primaryButton } from '../ui/styles';
import { useToast } from '../ui/Toast';

// The email test tool (SPEC §2, §5, §8): to, subject and text required; the server sends the
// message at once through the store's mail transport and the result is reported word for word.

export function TestEmailForm() {
  const trpc = useTRPC();
  const toast = useToast();
  const { register, handleSubmit, setError, formState } = useForm<TestEmailInput>({
    resolver: zodResolver(testEmailInput),
    defaultValues: { to: '', subject: '', text: '' },
  });
  const { errors } = formState;
  const send = useMutation(
    trpc.admin.settings.sendTestEmail.mutationOptions({
      onSuccess: ({ messageId }) => toast.success(emailSentMessage(messageId)),
      onError: (error) => {
        toast.error(emailFailedMessage(error.message));
        showFieldErrors(error, setError, ['to', 'subject', 'text']);
      },
    }),
  );
  const submit = handleSubmit((values) => send.mutate(values));

  return (
    <section aria-labelledby="test-email-title" className={`${card} p-4 sm:p-6`}>
      <h2 id="test-email-title" className="font-display text-lg font-bold text-stone-950">
        Test Email
      </h2>
      <p className="mt-1 text-sm text-stone-600">Sends one email right away, skipping the queue, to check the store's mail setup.</p>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-5 grid gap-4 md:grid-cols-2">
        <TextField label="To" required type="email" autoComplete="email" error={errors.to?.message} {...register('to')} />
        <TextField label="Subject" required autoComplete="off" error={errors.subject?.message} {...register('subject')} />
        <TextAreaField label="Text" required rows={5} className="md:col-span-2" error={errors.text?.message} {...register('text')} />
        <div className="flex justify-end md:col-span-2">
          <button type="submit" className={`${primaryButton} w-full sm:w-auto`} disabled={send.isPending}>
            {send.isPending ? <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> : <Send className="size-4" aria-hidden="true" />}
            {send.isPending ? 'Sending...' : 'Send Test Email'}
          </button>
        </div>
      </form>
    </section>
  );
}
