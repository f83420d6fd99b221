import { z } from 'zod';
import { SLUG_PATTERN } from '../slug';

// Field rules more than one form shares, with their messages.

export const INVALID_EMAIL = 'Please enter a valid email address';
export const INVALID_SLUG = 'Slug may contain only lowercase letters, numbers and single hyphens';

/** Text that must not be blank after trimming, at most `max` characters. */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });

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
