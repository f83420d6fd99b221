import { z } from 'zod';
import { formatMoney } from '../money';

// Discount codes (docs/adr/0031-discount-rules-and-rounding.md): the checkout field's rules and
// refusals, in words a shopper understands, and the admin form's.

export const DISCOUNT_CODE_MAX_LENGTH = 40;
export const CODE_REQUIRED = 'Enter a discount code';
export const CODE_TOO_LONG = `A discount code has at most ${DISCOUNT_CODE_MAX_LENGTH} characters`;
export const CODE_CHARACTERS = 'A discount code has only letters, digits, - and _';

export const CODE_NOT_VALID = 'This code is not valid';
export const CODE_EXPIRED = 'This code has expired';
export const CODE_USED_UP = 'This code has been used up';
export const CODE_ALREADY_USED = 'You have already used this code';
export const codeStartsOn = (date: string) => `This code starts on ${date}`;
export const addMoreToUse = (cents: number) => `Add ${formatMoney(cents / 100)} more to use this code`;

/** The summary line of an applied code: ["Discount (LAUNCH20)", "−$9.99"]. */
export const discountLine = (code: string, amount: string | number): [string, string] => [`Discount (${code})`, `−${formatMoney(amount)}`];

/** A code as typed at checkout or in the admin form: matched without regard to case. */
export const discountCodeInput = z
  .string({ error: CODE_REQUIRED })
  .trim()
  // An empty code gets one message, not the pattern's too.
  .min(1, { error: CODE_REQUIRED, abort: true })
  .max(DISCOUNT_CODE_MAX_LENGTH, { error: CODE_TOO_LONG })
  .regex(/^[A-Za-z0-9_-]+$/, { error: CODE_CHARACTERS });
