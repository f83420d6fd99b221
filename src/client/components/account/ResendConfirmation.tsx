import { useMutation } from '../../mutations';
import { errorMessage } from '../../errors';
import { useTRPC } from '../../trpc';
import { Button } from '../ui/Button';
import { FormMessage } from '../ui/Form';

/** Sends the signed-in user a fresh confirmation link, for when the first is lost or expired. */
export function ResendConfirmation({ email, className = '' }: { email: string; className?: string }) {
  const trpc = useTRPC();
  const resend = useMutation(trpc.auth.resendConfirmation.mutationOptions());
  return (
    <div className={className}>
      {resend.isSuccess ? (
        <FormMessage kind="success">We sent a new confirmation link to {email}.</FormMessage>
      ) : (
        <Button variant="secondary" size="lg" onClick={() => resend.mutate()} busy={resend.isPending} busyLabel="Sending...">
          Send a New Confirmation Link
        </Button>
      )}
      {resend.isError && (
        <div className="mt-3">
          <FormMessage kind="error">{errorMessage(resend.error, 'Failed to send the confirmation email. Please try again.')}</FormMessage>
        </div>
      )}
    </div>
  );
}
