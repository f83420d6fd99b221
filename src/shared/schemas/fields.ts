import { z } from 'zod';
import { SLUG_PATTERN } from '../slug';

// Field rules more than one form shares, with their messages.

export const INVALID_EMAIL = 'Please enter a valid email address';
export const INVALID_SLUG = 'Slug may contain only lowercase letters, numbers and single hyphens';
export const INVALID_PHONE = 'Please enter a valid phone number';

/** Why a modal form's save was refused: the record changed since the form opened it (src/server/trpc/update.ts). */
export const changedElsewhereInForm = (thing: string) =>
  `This ${thing} was changed elsewhere since you opened it (in another tab, or by another admin). Close this form and open the ${thing} again to see the changes, then save again.`;

// Something to see: a character that is neither white space, an invisible format character (a
// zero-width space, say), a mark with nothing to sit on, nor a letter or symbol drawn blank (the
// Hangul fillers, the blank braille pattern), which trimming leaves in place.
const VISIBLE = /[^\s\p{Cf}\p{M}\u115F\u1160\u2800\u3164\uFFA0]/u;
// Line breaks (the Unicode line and paragraph separators too) and other control characters: a
// name or an address line that holds one would break the label, the email or the export it is
// printed in.
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const isSingleLine = (value: string) => !CONTROL.test(value);
const notSingleLine = (label: string) => ({ error: `${label} must be a single line of text` });

/** Text that must not be blank (or invisible) after trimming, at most `max` characters; line breaks allowed. */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` })
    // An empty one has its message already.
    .refine((value) => value === '' || VISIBLE.test(value), { error: `${label} is required` });

/** A required single line of text: a name, an address line, a subject. */
export const requiredLine = (label: string, max = 200) => requiredText(label, max).refine(isSingleLine, notSingleLine(label));

/** A single line of text that may be left blank ('' when absent): a phone number, a country. */
export const optionalLine = (label: string, max = 200) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .refine(isSingleLine, notSingleLine(label))
    .default('');

// Digits with the separators people write (spaces, dots, dashes, brackets, slashes), a leading +,
// and an extension ("ext. 12", "x12"): 7 to 15 digits before it, as E.164 numbers have. A carrier
// calls it when a parcel is stuck.
const PHONE = /^(\+?[\d ().\-/]+?)(?: *(?:ext\.?|x|#) *\d{1,6})?$/i;
const PHONE_DIGITS = { min: 7, max: 15 };
const PHONE_MAX_LENGTH = 40;

function isPhoneNumber(value: string): boolean {
  const digits = PHONE.exec(value)?.[1]?.replace(/\D/g, '').length ?? 0;
  return digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max;
}
// Blank, long and multi-line values have their own messages. The length goes first: the pattern
// backtracks, in time that grows with the square of a long run of spaces.
const phoneOrOtherIssue = (value: string) =>
  value === '' || value.length > PHONE_MAX_LENGTH || !isSingleLine(value) || isPhoneNumber(value);

/** A phone number the account must have. */
export const requiredPhone = () => requiredLine('Phone', PHONE_MAX_LENGTH).refine(phoneOrOtherIssue, { error: INVALID_PHONE });

/** A phone number that may be left blank ('' when absent). */
export const optionalPhone = () => optionalLine('Phone', PHONE_MAX_LENGTH).refine(phoneOrOtherIssue, { error: INVALID_PHONE });

/** An email address, trimmed; `requiredMessage` when it is blank. */
export const emailAddress = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage })
    .max(254, { error: INVALID_EMAIL })
    .pipe(z.email({ error: INVALID_EMAIL }));

/** The address part of a page (products, categories): lowercase letters, numbers and single hyphens. */
export const slugText = (max: number) =>
  z
    .string({ error: 'Slug is required' })
    .trim()
    // A blank slug gets one message, not the pattern's too.
    .min(1, { error: 'Slug is required', abort: true })
    .max(max, { error: `Slug must be at most ${max} characters` })
    .regex(SLUG_PATTERN, { error: INVALID_SLUG });

/** A money amount in dollars with whole cents, from 0 up to `max`. */
export const moneyAmount = (label: string, max = 100_000) =>
  z
    .number({ error: `${label} is required` })
    .min(0, { error: `${label} must be 0 or more` })
    .max(max, { error: `${label} is too large` })
    // Whole cents, with a float tolerance (0.1 + 0.2 is not exact).
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, { error: `${label} must be in whole cents` });
