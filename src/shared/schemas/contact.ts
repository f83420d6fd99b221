import { z } from 'zod';
import { emailAddress, requiredLine, requiredText } from './fields';

export const contactInput = z.object({
  name: requiredLine('Name', 200),
  email: emailAddress('Email is required'),
  subject: requiredLine('Subject', 200),
  message: requiredText('Message', 5000),
});
export type ContactInput = z.infer<typeof contactInput>;
