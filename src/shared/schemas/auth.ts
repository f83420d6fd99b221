import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants';
import { storePath } from '../return-path';
import { emailAddress } from './fields';

// Texts of docs/PRODUCT.md § Validation and Messages, word for word.
export const CREDENTIALS_REQUIRED = 'You must provide either an email or phone number and a password';
const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
export const INVALID_EXPIRED_RESET_LINK = 'Invalid or expired reset link';
export const INVALID_RESET_LINK = 'Invalid reset link';
export const INVALID_CREDENTIALS = 'Invalid login credentials';
export const INVALID_CONFIRMATION_LINK = 'Invalid or expired confirmation link';

/** A new confirmation link refused: the account's address had its hour of account emails (src/server/auth/account-emails.ts). */
export const TOO_MANY_ACCOUNT_EMAILS =
  'We have sent several emails to this address in the last hour. Please check your inbox and spam folder, or try again later.';

export const emailField = emailAddress(CREDENTIALS_REQUIRED);

export const newPasswordField = z
  .string({ error: CREDENTIALS_REQUIRED })
  .min(MIN_PASSWORD_LENGTH, { error: PASSWORD_TOO_SHORT })
  .max(256, { error: 'Password must be at most 256 characters long' });

export const signInInput = z.object({
  email: emailField,
  password: z.string({ error: CREDENTIALS_REQUIRED }).min(1, { error: CREDENTIALS_REQUIRED }).max(256),
});

/** Where the confirmation link leads back to: a page of this store, or the sign-up is refused as tampered. */
export const returnToField = z.string().refine((value) => storePath(value) !== undefined, { error: 'Invalid return address' });

export const signUpInput = z.object({ email: emailField, password: newPasswordField, returnTo: returnToField.optional() });

export const passwordResetRequestInput = z.object({ email: emailField });

const tokenField = z.string({ error: INVALID_RESET_LINK }).trim().min(1, { error: INVALID_RESET_LINK }).max(200, {
  error: INVALID_EXPIRED_RESET_LINK,
});

export const verifyResetTokenInput = z.object({ token: tokenField });
export const resetPasswordInput = z.object({ token: tokenField, password: newPasswordField });
/** A confirmation link opened in a browser other than the one that signed up (docs/PRODUCT.md § Messages). */
export const CHOOSE_PASSWORD_TO_CONFIRM = 'Choose a password to confirm your email in this browser.';

/** `password`: chosen on the Confirm Email page when the link was not made for this browser. */
export const confirmEmailInput = z.object({
  token: z.string().trim().min(1, { error: INVALID_CONFIRMATION_LINK }).max(200, { error: INVALID_CONFIRMATION_LINK }),
  password: newPasswordField.optional(),
});

/** Client form: a new password typed twice. */
export const newPasswordForm = z
  .object({ password: newPasswordField, confirmPassword: z.string() })
  .refine((value) => value.password === value.confirmPassword, {
    error: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
  });
