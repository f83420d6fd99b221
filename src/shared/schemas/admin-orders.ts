import { z } from 'zod';
import { ORDER_STATUSES, PRINT_STATUSES, EMAIL_FILTERS, ORDER_FILTERS } from '../constants';
import { optionalLine } from './fields';

// Inputs and texts of the admin Orders, print queue and Email Logs screens (docs/PRODUCT.md § Screens, States and Messages),
// shared by the procedures and the screens.

// ---- Orders

export const ORDERS_PAGE_SIZE = 20;
const MAX_TRACKING_NUMBER_LENGTH = 100;

const orderId = z.uuid({ error: 'Invalid order' });

export const ordersListInput = z.object({
  status: z.enum(ORDER_FILTERS, { error: 'Invalid status' }).default('all'),
  /** Part of an order number, a customer's name or email. */
  search: z.string().trim().max(200).optional(),
  page: z.int({ error: 'Invalid page' }).min(1, { error: 'Invalid page' }).default(1),
});

export const orderGetInput = z.object({ id: orderId });

export const orderSetStatusInput = z.object({
  id: orderId,
  status: z.enum(ORDER_STATUSES, { error: 'Invalid status' }),
});

/** The detail modal's tracking number form; a blank tracking number clears it (null). */
export const trackingNumberForm = z.object({
  // One line: it is shown in the shipping email and put in the tracking link.
  trackingNumber: optionalLine('Tracking number', MAX_TRACKING_NUMBER_LENGTH).transform((value) => (value === '' ? null : value)),
});
export type TrackingNumberFormInput = z.input<typeof trackingNumberForm>;
export type TrackingNumberFormOutput = z.output<typeof trackingNumberForm>;

export const orderSetTrackingInput = trackingNumberForm.extend({ id: orderId });

export const orderItemSetPrintStatusInput = z.object({
  itemId: z.uuid({ error: 'Invalid order item' }),
  printStatus: z.enum(PRINT_STATUSES, { error: 'Invalid print status' }),
});

/** docs/PRODUCT.md § Messages alerts of the order detail modal. */
export const statusUpdateError = (message: string) => `Error updating status: ${message}`;
export const trackingUpdateError = (message: string) => `Error updating tracking number: ${message}`;
export const printStatusUpdateError = (message: string) => `Error updating print status: ${message}`;

// ---- Print queue CSV

export const PRINT_QUEUE_PATH = '/api/admin/print-queue.csv';
export const PRINT_QUEUE_COLUMNS = [
  'Order #',
  'SKU',
  'Customer',
  'Product',
  'Colour',
  'Size',
  'Quantity',
  'Print Status',
  'Order Date',
  'Order Status',
] as const;
/** The print statuses whose items still need printing. */
export const PRINT_QUEUE_STATUSES = ['pending', 'printing'] as const;
export const EMPTY_PRINT_QUEUE = 'No items in print queue';
/** print-queue-YYYY-MM-DD.csv (docs/PRODUCT.md § Limits), dated by the given day (UTC). */
export const printQueueFileName = (date: Date) => `print-queue-${date.toISOString().slice(0, 10)}.csv`;

// ---- Email logs

const emailId = z.uuid({ error: 'Invalid email' });

export const emailsListInput = z.object({
  status: z.enum(EMAIL_FILTERS, { error: 'Invalid status' }).default('all'),
});
export const emailAttemptsInput = z.object({ id: emailId });
export const emailRetryInput = z.object({ id: emailId });

/** Only failed and permanently failed emails offer Retry Now (docs/PRODUCT.md § States). */
export const RETRYABLE_EMAIL_STATUSES = ['failed', 'permanently_failed'] as const;
export const EMAIL_NOT_RETRYABLE = 'Only failed emails can be retried';

export const EMAIL_RETRY_SUCCESS = 'Email marked for retry';
export const EMAIL_RETRY_FAILED = 'Failed to mark email for retry';
export const EMAIL_LOAD_FAILED = 'Failed to load emails';
export const EMAIL_PROCESS_FAILED = 'Failed to process email queue';
export const queueProcessedMessage = (result: { sent: number; retrying: number; permanentlyFailed: number }) =>
  `Queue processed: ${result.sent} sent, ${result.retrying} queued for retry, ${result.permanentlyFailed} permanently failed`;
