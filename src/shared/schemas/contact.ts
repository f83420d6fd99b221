import { z } from 'zod';

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });

export const contactInput = z.object({
  name: required('Name', 200),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, { error: 'Email is required' })
    .max(254, { error: 'Please enter a valid email address' })
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  subject: required('Subject', 200),
  message: required('Message', 5000),
});
export type ContactInput = z.infer<typeof contactInput>;
