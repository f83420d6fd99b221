import { zodResolver } from '@hookform/resolvers/zod';
import { UserRoundPlus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { newPasswordField } from '../../../shared/schemas/auth';
import { errorMessage, showServerErrors, UNEXPECTED_ERROR } from '../../errors';
import { useMutation } from '../../mutations';
import { useTRPC } from '../../trpc';
import { Card } from '../ui/Card';
import { TextField } from '../ui/fields';
import { Form, FormMessage, SubmitButton } from '../ui/Form';

// "Create an account" on a guest order's thank-you page: a password only, the order's address
// being the account's. The server answers alike whether or not the address has an account; the
// emailed link confirms it, signs in and brings the buyer back to this order, now in the account.

const passwordForm = z.object({ password: newPasswordField });
export const ACCOUNT_LINK_SENT = 'Check your email: we sent you a link to confirm your account. It brings you back to this order.';

export function CreateAccountCard({ orderNumber, accessKey }: { orderNumber: string; accessKey: string }) {
  const trpc = useTRPC();
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const form = useForm({ resolver: zodResolver(passwordForm), defaultValues: { password: '' } });
  const create = useMutation(trpc.checkout.createAccount.mutationOptions());

  const submit = async ({ password }: { password: string }) => {
    setMessage(null);
    try {
      await create.mutateAsync({ orderNumber, key: accessKey, password });
      setMessage({ kind: 'success', text: ACCOUNT_LINK_SENT });
    } catch (error) {
      const shown = showServerErrors(form, error);
      if (!shown.onFields) setMessage({ kind: 'error', text: errorMessage(error, UNEXPECTED_ERROR) });
    }
  };

  return (
    <Card
      spacious
      title="Create an account"
      description="Follow this order and check out faster next time. We already have your email: choose a password."
      data-testid="create-account"
    >
      {message?.kind === 'success' ? (
        <FormMessage kind="success">{message.text}</FormMessage>
      ) : (
        <Form form={form} onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <TextField
            name="password"
            label="Password"
            type="password"
            autoComplete="new-password"
            required
            hint="At least 6 characters."
            className="flex-1"
          />
          <SubmitButton busyLabel="Creating account..." className="sm:mt-7">
            <UserRoundPlus className="size-4" aria-hidden="true" />
            Create Account
          </SubmitButton>
          {message && <FormMessage kind="error">{message.text}</FormMessage>}
        </Form>
      )}
    </Card>
  );
}
