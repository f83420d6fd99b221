import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { MailCheck, MailWarning } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { cart } from '../../cart/cart';
import { safeRedirect } from '../../session/redirect';
import { useMutation } from '../../mutations';
import { INVALID_CONFIRMATION_LINK, newPasswordForm } from '../../../shared/schemas/auth';
import { errorMessage } from '../../errors';
import { sessionChanged, useMe } from '../../session/session';
import { useTRPC } from '../../trpc';
import { useDocumentTitle } from '../ui/use-document-title';
import { AuthCard } from './AuthCard';
import { NewPasswordFields } from './credential-fields';
import { ResendConfirmation } from './ResendConfirmation';
import { Button, ButtonLink } from '../ui/Button';
import { Form, FormMessage, SubmitButton } from '../ui/Form';
import { LoadingState } from '../ui/states';
import { toast } from '../ui/Toast';

const routeApi = getRouteApi('/confirm-email');

const isCheckout = (path: string) => /^\/checkout(?:[/?#]|$)/.test(path);

/** Signed in, but the cart lives in the storage of the browser where checkout started. */
function CartInOtherBrowser() {
  return (
    <AuthCard icon={MailCheck} title="Your email is confirmed">
      <p className="text-sm leading-6 text-stone-600" data-testid="cart-in-other-browser">
        You are signed in. Your cart is in the other browser, where you started checking out: open the checkout there to finish your order,
        or add the items again here.
      </p>
      <div className="mt-6 grid gap-3 sm:grid-cols-2">
        <ButtonLink to="/shop" size="lg" block>
          Continue Shopping
        </ButtonLink>
        <ButtonLink to="/dashboard" variant="secondary" size="lg" block>
          Go to My Account
        </ButtonLink>
      </div>
    </AuthCard>
  );
}

export function ConfirmEmailPage() {
  useDocumentTitle('Confirm Email');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { token, next } = routeApi.useSearch();
  const me = useMe().data;
  const returnTo = safeRedirect(next);
  // Back to a checkout whose cart is in another browser (the link opened on another device, say).
  const [cartElsewhere, setCartElsewhere] = useState(false);
  const confirm = useMutation(
    trpc.auth.confirmEmail.mutationOptions({
      // The link signed its owner in, in place of whoever was signed in here: the other tabs are
      // told, and the owner goes back to where the sign-up started (the checkout with its cart, a
      // plan's join page), or on to My Account (PRODUCT.md: sign-up success goes to /dashboard).
      onSuccess: async (confirmed) => {
        queryClient.setQueryData(trpc.auth.me.queryKey(), confirmed);
        await sessionChanged(queryClient, 'signed-in');
        toast.success(`Thanks! ${confirmed.email} is confirmed.`);
        if (returnTo && isCheckout(returnTo) && cart.getLines().length === 0) setCartElsewhere(true);
        else await navigate({ href: returnTo ?? '/dashboard', replace: true });
      },
    }),
  );
  // Opening the link only shows whose address it confirms; the visitor confirms with a click, so a
  // link someone else sent cannot sign this browser into their account unnoticed.
  const pending = useQuery(trpc.auth.confirmationFor.queryOptions({ token: token ?? '' }, { enabled: Boolean(token), retry: false }));

  if (cartElsewhere) return <CartInOtherBrowser />;

  if (token && !pending.isError && !confirm.isError) {
    if (!pending.data || confirm.isSuccess) {
      // Also shown while a confirmed owner goes on to My Account.
      return (
        <AuthCard icon={MailCheck} title="Confirm Email">
          <LoadingState label={confirm.isSuccess ? 'Confirming your email address...' : 'Checking your link...'} />
        </AuthCard>
      );
    }
    const { email, choosePassword } = pending.data;
    return (
      <AuthCard icon={MailCheck} title="Confirm Email">
        <p className="text-sm leading-6 text-stone-600">
          Confirm <strong className="font-semibold text-stone-900">{email}</strong> as your email address and sign in with it.
        </p>
        {me && me.email.toLowerCase() !== email.toLowerCase() && (
          <p className="mt-3 text-sm leading-6 text-stone-600" data-testid="confirm-switches-account">
            You are signed in as {me.email}. Confirming signs you out of that account. If you did not ask for this link, close this page.
          </p>
        )}
        {choosePassword ? (
          <ChoosePasswordForm busy={confirm.isPending} onSubmit={({ password }) => confirm.mutate({ token, password })} />
        ) : (
          <Button
            size="lg"
            block
            className="mt-6"
            busy={confirm.isPending}
            busyLabel="Confirming..."
            onClick={() => confirm.mutate({ token })}
          >
            Confirm Email
          </Button>
        )}
      </AuthCard>
    );
  }

  // A used link opened again by its confirmed owner: nothing went wrong for them.
  if (me?.emailConfirmed) {
    return (
      <AuthCard icon={MailWarning} title="Confirm Email">
        <FormMessage kind="success">Your email address is already confirmed.</FormMessage>
        <p className="mt-5 text-sm leading-6 text-stone-600">This link has been used or has expired, and there is nothing more to do.</p>
        <ButtonLink to="/dashboard" size="lg" block className="mt-6">
          Go to My Account
        </ButtonLink>
      </AuthCard>
    );
  }

  return (
    <AuthCard icon={MailWarning} title="Confirm Email">
      <FormMessage kind="error">
        {token ? errorMessage(confirm.error ?? pending.error, INVALID_CONFIRMATION_LINK) : INVALID_CONFIRMATION_LINK}
      </FormMessage>
      {me ? (
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

/**
 * A link opened in a browser other than the one that signed up: the account's password may be a
 * stranger's (who signed up first with this address), so confirming here sets one of the
 * confirmer's own (docs/PRODUCT.md § Screens).
 */
function ChoosePasswordForm({ busy, onSubmit }: { busy: boolean; onSubmit: (values: { password: string }) => void }) {
  const form = useForm({ resolver: zodResolver(newPasswordForm), defaultValues: { password: '', confirmPassword: '' } });
  return (
    <Form form={form} onSubmit={onSubmit} className="mt-5 space-y-5">
      <p className="text-sm leading-6 text-stone-600" data-testid="confirm-choose-password">
        This link was opened in a browser other than the one used to sign up. To confirm here, choose the account's password: any password
        set before stops working, and every device signed in to the account is signed out.
      </p>
      <NewPasswordFields />
      <SubmitButton busy={busy} busyLabel="Confirming..." className="w-full">
        Confirm Email
      </SubmitButton>
    </Form>
  );
}
