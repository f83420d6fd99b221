import { zodResolver } from '@hookform/resolvers/zod';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { CircleCheck, KeyRound, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation } from '../../mutations';
import { RESET_REDIRECT_MS } from '../../../shared/constants';
import { INVALID_EXPIRED_RESET_LINK, INVALID_RESET_LINK, newPasswordForm } from '../../../shared/schemas/auth';
import { errorMessage } from '../../errors';
import { sessionChanged } from '../../session/session';
import { useTRPC } from '../../trpc';
import { useDocumentTitle } from '../ui/use-document-title';
import { AuthCard } from './AuthCard';
import { NewPasswordFields } from './credential-fields';
import { ButtonLink } from '../ui/Button';
import { Form, FormMessage, SubmitButton } from '../ui/Form';
import { LoadingState } from '../ui/states';

const routeApi = getRouteApi('/reset-password');

const RESET_FAILED = 'Failed to reset password';

export function ResetPasswordPage() {
  useDocumentTitle('Reset Password');
  const trpc = useTRPC();
  const search = routeApi.useSearch();
  const token = search.token_hash || search.token || '';
  const linkProblem = !token ? INVALID_RESET_LINK : search.type !== 'recovery' ? INVALID_EXPIRED_RESET_LINK : null;
  // Checked on load (docs/PRODUCT.md § States), without using the token up; never re-checked in the background.
  const verify = useQuery(
    trpc.auth.verifyResetToken.queryOptions(linkProblem ? skipToken : { token }, {
      retry: false,
      staleTime: Infinity,
      refetchOnWindowFocus: false,
    }),
  );
  const [done, setDone] = useState(false);

  if (done) return <ResetSuccess />;
  if (linkProblem) return <InvalidLink message={linkProblem} />;
  if (verify.isPending) {
    return (
      <AuthCard icon={KeyRound} title="Reset Password">
        <LoadingState label="Checking your reset link..." />
      </AuthCard>
    );
  }
  if (verify.isError) return <InvalidLink message={errorMessage(verify.error, INVALID_EXPIRED_RESET_LINK)} />;
  return <NewPasswordForm token={token} onDone={() => setDone(true)} />;
}

function InvalidLink({ message }: { message: string }) {
  return (
    <AuthCard icon={TriangleAlert} title="Reset Password">
      <FormMessage kind="error">{message}</FormMessage>
      <p className="mt-5 text-sm leading-6 text-stone-600">
        Reset links work once and expire after an hour. Ask for a new one and use the latest email we send you.
      </p>
      <div className="mt-6 flex flex-col gap-3">
        <ButtonLink to="/login" search={{ mode: 'reset' }} size="lg">
          Request a New Link
        </ButtonLink>
        <ButtonLink to="/login" variant="secondary" size="lg">
          Back to Sign In
        </ButtonLink>
      </div>
    </AuthCard>
  );
}

function NewPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(newPasswordForm), defaultValues: { password: '', confirmPassword: '' } });
  const resetPassword = useMutation(trpc.auth.resetPassword.mutationOptions());

  const onValid = async ({ password }: { password: string }) => {
    setFailure(null);
    try {
      await resetPassword.mutateAsync({ token, password });
    } catch (error) {
      setFailure(errorMessage(error, RESET_FAILED));
      return;
    }
    // The server ended every session of this user, this browser's included.
    queryClient.setQueryData(trpc.auth.me.queryKey(), null);
    onDone();
    await sessionChanged(queryClient, 'signed-out');
  };

  return (
    <AuthCard icon={KeyRound} title="Set a New Password" subtitle="Choose a password you don't use anywhere else.">
      <Form form={form} onSubmit={onValid} className="space-y-5">
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <NewPasswordFields />
        <SubmitButton busy={resetPassword.isPending} busyLabel="Updating..." className="w-full">
          Update Password
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}

function ResetSuccess() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => void navigate({ to: '/login', replace: true }), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate]);
  return (
    <AuthCard icon={CircleCheck} title="Password Updated">
      <FormMessage kind="success">Your password has been reset. Redirecting you to sign in...</FormMessage>
      <p className="mt-5 text-sm leading-6 text-stone-600">
        For your security, you have been signed out everywhere. Sign in with your new password.
      </p>
      <ButtonLink to="/login" replace size="lg" block className="mt-6">
        Sign In Now
      </ButtonLink>
    </AuthCard>
  );
}
