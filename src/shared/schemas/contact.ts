import { z } from 'zod';
import { emailAddress, requiredText } from './fields';

export const contactInput = z.object({
  name: requiredText('Name', 200),
  email: emailAddress('Email is required'),
  subject: requiredText('Subject', 200),
  message: requiredText('Message', 5000),
});
export type ContactInput = z.infer<typeof contactInput>;
