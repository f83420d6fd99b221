import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { LOGIN_MODES, LoginPage } from '../components/account/LoginPage';
import { currentUser, safeRedirect } from '../session/redirect';

export const Route = createFileRoute('/login')({
  // The mode lives in the URL so "Forgot password" and "Sign up" are real links; `redirect` is the
  // page that sent the user here (checked by safeRedirect before it is followed).
  validateSearch: z.object({
    mode: z.enum(LOGIN_MODES).optional().catch(undefined),
    redirect: z.string().optional().catch(undefined),
  }),
  beforeLoad: async ({ context, search }) => {
    const me = await currentUser(context);
    // Someone already signed in has nothing to do here.
    if (me) throw redirect({ href: safeRedirect(search.redirect) ?? '/dashboard', replace: true });
  },
  component: LoginPage,
});
