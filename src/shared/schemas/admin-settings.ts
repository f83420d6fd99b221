import { z } from 'zod';
import { SIZES } from '../constants';
import { imageUrlField } from './admin-categories';
import { emailAddress, moneyAmount, requiredLine, requiredText } from './fields';

// Admin settings: default mockup templates and the test email tool (docs/PRODUCT.md § Screens, Validation and Messages).

export const TEMPLATES_REQUIRED = 'Both front and back templates are required';
export const TEMPLATES_SAVED = 'Default mockup templates saved successfully!';
export const TEMPLATE_BUCKET = 'templates';
export const DEFAULT_TEMPLATE_NAME = 'Default Template';

export const defaultTemplatesInput = z.object({
  front_template_url: imageUrlField(TEMPLATES_REQUIRED),
  back_template_url: imageUrlField(TEMPLATES_REQUIRED),
});
export type DefaultTemplatesInput = z.input<typeof defaultTemplatesInput>;

export const testEmailInput = z.object({
  to: emailAddress('To is required'),
  subject: requiredLine('Subject', 200),
  text: requiredText('Text', 10_000),
});
export type TestEmailInput = z.input<typeof testEmailInput>;

export const templateSaveError = (message: string) => `Error: ${message}`;
export const emailSentMessage = (messageId: string | null | undefined) => `Email sent successfully! Message ID: ${messageId || 'N/A'}`;
export const emailFailedMessage = (error: string | null | undefined) => `Failed to send email: ${error || 'Unknown error'}`;

// ---- Checkout settings

export const CHECKOUT_SETTINGS_SAVED = 'Checkout settings saved successfully!';
export const TRACKING_URL_NEEDS_NUMBER = 'The tracking link must contain {number} where the tracking number goes';

export const checkoutSettingsInput = z.object({
  flat_shipping_rate: moneyAmount('Shipping rate', 1000),
  /** Orders from this subtotal up ship free; null: the flat rate always applies. */
  free_shipping_threshold: moneyAmount('Free shipping threshold').nullable(),
  tax_rate_percent: z
    .number({ error: 'Tax rate is required' })
    .min(0, { error: 'Tax rate must be 0 or more' })
    .max(100, { error: 'Tax rate must be at most 100' })
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, { error: 'Tax rate can have at most 2 decimal places' }),
  payment_instructions: z.string().trim().max(2000, { error: 'Payment instructions must be at most 2000 characters' }),
  tracking_url_template: z
    .string()
    .trim()
    .max(500, { error: 'The tracking link must be at most 500 characters' })
    .pipe(z.url({ protocol: /^https?$/, error: 'Please enter a valid URL' }))
    .refine((value) => value.includes('{number}'), { error: TRACKING_URL_NEEDS_NUMBER }),
  /** "Customers can check out without an account"; left as it is when not sent. */
  guest_checkout: z.boolean().optional(),
});
export type CheckoutSettingsInput = z.input<typeof checkoutSettingsInput>;

export const SETTINGS_CHANGED_ELSEWHERE =
  'These settings were changed elsewhere since you opened them (in another tab, or by another admin). Reload the page to see the changes, then save again.';

/** With the settings' updated_at as the form loaded them: settings changed since are not written over. */
export const checkoutSettingsSaveInput = checkoutSettingsInput.extend({ updatedAt: z.string().min(1).max(64) });

// ---- Size pricing: what each size costs on top of a product's price (docs/adr/0029)

export const SIZE_PRICING_SAVED = 'Size pricing saved successfully!';

/** One amount per size, 0 or more, in whole cents; a size left out costs nothing extra. */
export const sizePricingInput = z.object({
  surcharges: z.partialRecord(z.enum(SIZES), moneyAmount('Surcharge', 1000)),
});
export type SizePricingInput = z.input<typeof sizePricingInput>;

// ---- Backups (the embedded database's daily backups, docs/adr/0024)

/** GET <path>/<name> downloads one of the listed backups (admins only). */
export const BACKUP_DOWNLOAD_PATH = '/api/admin/backups';
export const BACK_UP_NOW = 'Back up now';
export const BACKUP_TAKEN = 'Backup taken';
/** A store on a PostgreSQL server keeps no backups of its own: several processes share it, each with its own disk. */
export const BACKUPS_ON_SERVER =
  'This store runs on a PostgreSQL server: back it up with npm run backup (pg_dump) or your database provider’s snapshots.';
