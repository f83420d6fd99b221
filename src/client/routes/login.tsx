import { createFileRoute, redirect } from '@tanstack/react-router';
import { LoginPage } from '../components/account/LoginPage';
import { LOGIN_MODES, type LoginMode } from '../components/account/login-modes';
import { oneOf, searchParams, text } from '../search-params';
import { currentUser, safeRedirect } from '../session/redirect';

// The mode lives in the URL so "Forgot password" and "Sign up" are real links; `redirect` is the
// page that sent the user here (checked by safeRedirect before it is followed).
const validateSearch = searchParams<{ mode?: LoginMode; redirect?: string }>()((raw) => ({
  mode: oneOf(LOGIN_MODES, raw.mode),
  redirect: text(raw.redirect),
}));

export const Route = createFileRoute('/login')({
  validateSearch,
  beforeLoad: async ({ context, search }) => {
    const me = await currentUser(context);
    // Someone already signed in has nothing to do here.
    if (me) throw redirect({ href: safeRedirect(search.redirect) ?? '/dashboard', replace: true });
  },
  component: LoginPage,
});
