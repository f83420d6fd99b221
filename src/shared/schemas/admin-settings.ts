import { z } from 'zod';
import { imageUrlField, requiredText } from './admin-categories';

// Admin settings: default mockup templates and the test email tool (SPEC §2, §5, §8).

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
  to: z
    .string({ error: 'To is required' })
    .trim()
    .min(1, { error: 'To is required' })
    .max(254, { error: 'Please enter a valid email address' })
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  subject: requiredText('Subject', 200),
  text: requiredText('Text', 10_000),
});
export type TestEmailInput = z.input<typeof testEmailInput>;

export const templateSaveError = (message: string) => `Error: ${message}`;
export const emailSentMessage = (messageId: string | null | undefined) => `Email sent successfully! Message ID: ${messageId || 'N/A'}`;
export const emailFailedMessage = (error: string | null | undefined) => `Failed to send email: ${error || 'Unknown error'}`;
