import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../session/errors';
import { useTRPC } from '../../trpc';
import { FormMessage, secondaryButton } from './ui';

/** Sends the signed-in user a fresh confirmation link, for when the first is lost or expired. */
export function ResendConfirmation({ email, className = '' }: { email: string; className?: string }) {
  const trpc = useTRPC();
  const resend = useMutation(trpc.auth.resendConfirmation.mutationOptions());
  return (
    <div className={className}>
      {resend.isSuccess ? (
        <FormMessage kind="success">We sent a new confirmation link to {email}.</FormMessage>
      ) : (
        <button type="button" className={secondaryButton} onClick={() => resend.mutate()} disabled={resend.isPending}>
          {resend.isPending ? 'Sending...' : 'Send a New Confirmation Link'}
        </button>
      )}
      {resend.isError && (
        <div className="mt-3">
          <FormMessage kind="error">{errorMessage(resend.error, 'Failed to send the confirmation email. Please try again.')}</FormMessage>
        </div>
      )}
    </div>
  );
}
