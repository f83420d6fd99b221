import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { MailCheck, MailWarning } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { INVALID_CONFIRMATION_LINK } from '../../../shared/schemas/auth';
import { errorMessage } from '../../errors';
import { sessionChanged, useMe } from '../../session/session';
import { useTRPC } from '../../trpc';
import { useDocumentTitle } from '../ui/use-document-title';
import { AuthCard } from './AuthCard';
import { ResendConfirmation } from './ResendConfirmation';
import { ButtonLink } from '../ui/Button';
import { FormMessage } from '../ui/Form';
import { LoadingState } from '../ui/states';
import { toast } from '../ui/Toast';

const routeApi = getRouteApi('/confirm-email');

export function ConfirmEmailPage() {
  useDocumentTitle('Confirm Email');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { token } = routeApi.useSearch();
  const me = useMe().data;
  const confirm = useMutation(
    trpc.auth.confirmEmail.mutationOptions({
      // The link signed its owner in, in place of whoever was signed in here: the other tabs are
      // told, and the owner goes on to My Account (SPEC: sign-up success goes to /dashboard).
      onSuccess: async (confirmed) => {
        queryClient.setQueryData(trpc.auth.me.queryKey(), confirmed);
        await sessionChanged(queryClient, 'signed-in');
        toast.success(`Thanks! ${confirmed.email} is confirmed.`);
        await navigate({ to: '/dashboard', replace: true });
      },
    }),
  );
  // The token is single use: send it once per page load, whatever re-renders happen.
  const sent = useRef(false);
  const { mutate } = confirm;
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate({ token });
  }, [token, mutate]);

  // Also shown while a confirmed owner goes on to My Account.
  if (token && !confirm.isError) {
    return (
      <AuthCard icon={MailCheck} title="Confirm Email">
        <LoadingState label="Confirming your email address..." />
      </AuthCard>
    );
  }

  return (
    <AuthCard icon={MailWarning} title="Confirm Email">
      <FormMessage kind="error">{token ? errorMessage(confirm.error, INVALID_CONFIRMATION_LINK) : INVALID_CONFIRMATION_LINK}</FormMessage>
      {me?.emailConfirmed ? (
        <>
          <p className="mt-5 text-sm leading-6 text-stone-600">
            Good news: your email address is already confirmed, so there is nothing more to do.
          </p>
          <ButtonLink to="/dashboard" size="lg" block className="mt-6">
            Go to My Account
          </ButtonLink>
        </>
      ) : me ? (
        <>
          <p className="mt-5 text-sm leading-6 text-stone-600">
            Confirmation links work once and expire after 7 days. We can send a new one to {me.email}.
          </p>
          <ResendConfirmation email={me.email} className="mt-6 [&>button]:w-full" />
        </>
      ) : (
        <>
          <p className="mt-5 text-sm leading-6 text-stone-600">
            Confirmation links work once and expire after 7 days. Sign in and we can send you a new one from your account page.
          </p>
          <ButtonLink to="/login" search={{ redirect: '/dashboard' }} size="lg" block className="mt-6">
            Sign In
          </ButtonLink>
        </>
      )}
    </AuthCard>
  );
}
