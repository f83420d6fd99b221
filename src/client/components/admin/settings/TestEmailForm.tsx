import { zodResolver } from '@hookform/resolvers/zod';
import { Send } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useMutation } from '../../../mutations';
import { emailFailedMessage, emailSentMessage, testEmailInput, type TestEmailInput } from '../../../../shared/schemas/admin-settings';
import { errorMessage, showServerErrors } from '../../../errors';
import { useTRPC } from '../../../trpc';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { TextArea, TextField } from '../../ui/fields';
import { Form } from '../../ui/Form';
import { toast } from '../../ui/Toast';

// The email test tool (docs/PRODUCT.md § Screens, Validation and Messages): to, subject and text required; the server sends the
// message at once through the store's mail transport and the result is reported word for word.

export function TestEmailForm() {
  const trpc = useTRPC();
  const form = useForm<TestEmailInput>({ resolver: zodResolver(testEmailInput), defaultValues: { to: '', subject: '', text: '' } });
  const send = useMutation(
    trpc.admin.settings.sendTestEmail.mutationOptions({
      onSuccess: ({ messageId }) => toast.success(emailSentMessage(messageId)),
      onError: (error) => {
        toast.error(emailFailedMessage(errorMessage(error, '')));
        showServerErrors(form, error);
      },
    }),
  );

  return (
    <Card title="Test Email" description="Sends one email right away, skipping the queue, to check the store's mail setup.">
      <Form form={form} onSubmit={(values) => send.mutate(values)} className="grid gap-4 md:grid-cols-2">
        <TextField name="to" label="To" required type="email" autoComplete="email" />
        <TextField name="subject" label="Subject" required autoComplete="off" />
        <TextArea name="text" label="Text" required rows={5} className="md:col-span-2" />
        <div className="flex justify-end md:col-span-2">
          <Button type="submit" icon={Send} busy={send.isPending} busyLabel="Sending..." className="w-full sm:w-auto">
            Send Test Email
          </Button>
        </div>
      </Form>
    </Card>
  );
}
