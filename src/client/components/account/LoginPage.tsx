import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { KeyRound, UserRound, UserRoundPlus } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { z } from 'zod';
import { useMutation } from '../../mutations';
import { CREDENTIALS_REQUIRED, emailField, newPasswordField, signInInput } from '../../../shared/schemas/auth';
import { safeRedirect } from '../../session/redirect';
import { errorMessage, showServerErrors, UNEXPECTED_ERROR } from '../../errors';
import { sessionChanged, useMe } from '../../session/session';
import { storeConfig } from '../../store-config';
import { useTRPC } from '../../trpc';
import { useDocumentTitle } from '../ui/use-document-title';
import { AuthCard } from './AuthCard';
import type { LoginMode } from './login-modes';
import { EmailWithNotice, type FormNotice } from './credential-fields';
import { textLinkClass } from '../ui/Button';
import { TextField } from '../ui/fields';
import { Form, SubmitButton } from '../ui/Form';
import { LoadingState } from '../ui/states';

const routeApi = getRouteApi('/login');

const RESET_LINK_SENT = 'Password reset link sent! Check your email.';
const RESET_LINK_FAILED = 'Failed to send password reset email';

// Sign-up asks for a password of the spec's length; an empty one gets the credentials message first.
const signUpForm = z.object({
  email: emailField,
  password: z.string().min(1, { error: CREDENTIALS_REQUIRED }).pipe(newPasswordField),
});
const resetForm = z.object({ email: z.string().trim().min(1, { error: 'Please enter your email address' }).pipe(emailField) });

type Message = FormNotice | null;

const HEADINGS: Record<LoginMode, { title: string; subtitle: string; icon: typeof UserRound }> = {
  signin: { title: 'Sign In', subtitle: 'Welcome back! Sign in to your account.', icon: UserRound },
  signup: {
    title: 'Create Account',
    subtitle: `Join ${storeConfig.storeName} to check out faster and keep track of your orders.`,
    icon: UserRoundPlus,
  },
  reset: { title: 'Reset Password', subtitle: "Enter your email and we'll send you a link to set a new password.", icon: KeyRound },
};

export function LoginPage() {
  const { mode = 'signin', redirect } = routeApi.useSearch();
  const me = useMe().data;
  const heading = HEADINGS[mode];
  useDocumentTitle(heading.title);

  const navigate = useNavigate();
  const target = safeRedirect(redirect) ?? '/dashboard';
  // Signed in here or in another tab: go on to where the user was headed (a path with its search).
  useEffect(() => {
    if (me) void navigate({ href: target, replace: true });
  }, [me, navigate, target]);
  if (me) return <LoadingState label="Signing you in..." />;

  return (
    <AuthCard icon={heading.icon} title={heading.title} subtitle={heading.subtitle}>
      {/* Keyed by mode: switching modes starts a fresh form with no messages (docs/PRODUCT.md § Screens). */}
      {mode === 'reset' ? <ResetRequestForm key="reset" /> : <CredentialsForm key={mode} mode={mode} />}
      <ModeLinks mode={mode} />
    </AuthCard>
  );
}

function ModeLink({ mode, children }: { mode: LoginMode; children: string }) {
  return (
    <Link from="/login" to="/login" search={(prev) => ({ ...prev, mode: mode === 'signin' ? undefined : mode })} className={textLinkClass}>
      {children}
    </Link>
  );
}

function ModeLinks({ mode }: { mode: LoginMode }) {
  return (
    <div className="mt-6 border-t border-stone-200 pt-6 text-center text-sm text-stone-600">
      {mode === 'signin' && (
        <p>
          Don't have an account? <ModeLink mode="signup">Sign up</ModeLink>
        </p>
      )}
      {mode === 'signup' && (
        <p>
          Already have an account? <ModeLink mode="signin">Sign in</ModeLink>
        </p>
      )}
      {mode === 'reset' && (
        <p>
          Remember your password? <ModeLink mode="signin">Back to sign in</ModeLink>
        </p>
      )}
    </div>
  );
}

function CredentialsForm({ mode }: { mode: 'signin' | 'signup' }) {
  // Where the confirmation link brings a new account back to (the checkout, a plan's join page).
  const returnTo = safeRedirect(routeApi.useSearch().redirect);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const messageId = useId();
  const [message, setMessage] = useState<Message>(null);
  const form = useForm({
    resolver: zodResolver(mode === 'signup' ? signUpForm : signInInput),
    defaultValues: { email: '', password: '' },
    // One message box for the form (like the provider's errors), so check again only on submit.
    reValidateMode: 'onSubmit',
  });
  const signIn = useMutation(trpc.auth.signIn.mutationOptions());
  const signUp = useMutation(trpc.auth.signUp.mutationOptions());
  const { errors } = form.formState;

  const onValid = async (values: { email: string; password: string }) => {
    setMessage(null);
    try {
      if (mode === 'signup') {
        // The same answer whether or not the address has an account; the next step is in the email.
        await signUp.mutateAsync({ ...values, ...(returnTo ? { returnTo } : {}) });
        setMessage({ kind: 'success', text: `Check your email. We sent a message to ${values.email} with the next step.` });
        return;
      }
      const me = await signIn.mutateAsync(values);
      // LoginPage sees the user and moves on; the other tabs are told too.
      queryClient.setQueryData(trpc.auth.me.queryKey(), me);
      await sessionChanged(queryClient, 'signed-in');
    } catch (error) {
      // The message box speaks for the form; a field the server names is marked invalid too.
      showServerErrors(form, error);
      setMessage({ kind: 'error', text: errorMessage(error, UNEXPECTED_ERROR) });
    }
  };
  const onInvalid = (fieldErrors: FieldErrors<{ email: string; password: string }>) => {
    const text = fieldErrors.email?.message ?? fieldErrors.password?.message ?? CREDENTIALS_REQUIRED;
    setMessage({ kind: 'error', text });
  };

  return (
    <Form form={form} onSubmit={onValid} onInvalid={onInvalid} className="space-y-5">
      <EmailWithNotice notice={message} noticeId={messageId} invalid={!!errors.email} />
      <div>
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          required
          hint={mode === 'signup' ? 'At least 6 characters.' : undefined}
          showError={false}
          invalidDescribedBy={errors.password ? messageId : undefined}
        />
        {mode === 'signin' && (
          <p className="mt-2 text-right text-sm">
            <ModeLink mode="reset">Forgot your password?</ModeLink>
          </p>
        )}
      </div>
      <SubmitButton busyLabel={mode === 'signup' ? 'Creating account...' : 'Signing in...'} className="w-full">
        {mode === 'signup' ? 'Create Account' : 'Sign In'}
      </SubmitButton>
    </Form>
  );
}

function ResetRequestForm() {
  const trpc = useTRPC();
  const messageId = useId();
  const [message, setMessage] = useState<Message>(null);
  const form = useForm({ resolver: zodResolver(resetForm), defaultValues: { email: '' }, reValidateMode: 'onSubmit' });
  const requestReset = useMutation(trpc.auth.requestPasswordReset.mutationOptions());

  const onValid = async (values: { email: string }) => {
    setMessage(null);
    try {
      await requestReset.mutateAsync(values);
      setMessage({ kind: 'success', text: RESET_LINK_SENT });
    } catch (error) {
      setMessage({ kind: 'error', text: errorMessage(error, RESET_LINK_FAILED) });
    }
  };

  return (
    <Form
      form={form}
      onSubmit={onValid}
      onInvalid={(fieldErrors) => setMessage({ kind: 'error', text: fieldErrors.email?.message ?? RESET_LINK_FAILED })}
      className="space-y-5"
    >
      <EmailWithNotice notice={message} noticeId={messageId} invalid={!!form.formState.errors.email} />
      <SubmitButton busyLabel="Sending..." className="w-full">
        Send Reset Link
      </SubmitButton>
    </Form>
  );
}
