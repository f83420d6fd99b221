import { z } from 'zod';
import { DEFAULT_COUNTRY } from '../constants';
import { newPasswordField } from './auth';
import { optionalLine, requiredLine, requiredPhone } from './fields';

const country = optionalLine('Country', 60).transform((value) => value || DEFAULT_COUNTRY);

export const requiredAddress = z.object({
  street: requiredLine('Street address'),
  city: requiredLine('City', 100),
  state: requiredLine('State', 100),
  zip: requiredLine('ZIP code', 20),
  country,
});

/** The billing fields as the form holds them, hidden and unchecked while "Same as shipping" is ticked. */
const enteredLine = z.string().optional();
const enteredAddress = z.object({ street: enteredLine, city: enteredLine, state: enteredLine, zip: enteredLine, country: enteredLine });

/**
 * Settings (docs/PRODUCT.md § Validation): names, phone and shipping address required; billing checked only when not the
 * same as shipping, and the shipping address otherwise.
 */
export const profileInput = z
  .object({
    first_name: requiredLine('First name', 100),
    last_name: requiredLine('Last name', 100),
    phone: requiredPhone(),
    shipping_address: requiredAddress,
    same_as_shipping: z.boolean(),
    billing_address: enteredAddress,
  })
  // A refinement, not only the transform below: it reports the billing fields beside the others' errors.
  .superRefine((value, ctx) => {
    if (value.same_as_shipping) return;
    const parsed = requiredAddress.safeParse(value.billing_address);
    for (const issue of parsed.error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: ['billing_address', ...issue.path] });
    }
  })
  .transform((value) => ({
    ...value,
    billing_address: value.same_as_shipping ? value.shipping_address : requiredAddress.parse(value.billing_address),
  }));
export type ProfileInput = z.input<typeof profileInput>;

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1, { error: 'Please enter your current password' }).max(256),
  password: newPasswordField,
});

/** Delete my account: the password is asked again, so a session left open elsewhere cannot do it. */
export const deleteAccountInput = z.object({
  password: z.string().min(1, { error: 'Please enter your password' }).max(256),
});

// Texts of the account's privacy section (docs/PRODUCT.md § Screens, Settings), shared with the tests.
export const DOWNLOAD_MY_DATA = 'Download my data';
export const DELETE_MY_ACCOUNT = 'Delete my account';
export const ACCOUNT_DELETED = 'Your account has been deleted.';
export const PASSWORD_INCORRECT = 'Password is incorrect';
/** The file Download my data saves, dated (YYYY-MM-DD). */
export const personalDataFileName = (day: string) => `my-data-${day}.json`;

/** The checkbox starts checked when billing and shipping street, city, state and zip match (docs/PRODUCT.md § Validation). */
export function billingMatchesShipping(
  shipping: { street: string; city: string; state: string; zip: string },
  billing: { street: string; city: string; state: string; zip: string },
): boolean {
  return (['street', 'city', 'state', 'zip'] as const).every((field) => shipping[field] === billing[field]);
}
