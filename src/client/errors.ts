import { isTRPCClientError } from '@trpc/client';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { toast } from './components/ui/Toast';
import { dataOf } from './error-data';

// The one way the client reads a failed call. The server's errorFormatter sends the message, the
// code and data.fieldErrors (messages keyed by the input's dotted field path); screens never
// parse messages themselves.

export const UNEXPECTED_ERROR = 'An unexpected error occurred';

/** Refusals whose message tells the user what to change; anything else (a crash, the network) does not. */
const ACTIONABLE_CODES = new Set([
  'BAD_REQUEST',
  'CONFLICT',
  'NOT_FOUND',
  'PRECONDITION_FAILED',
  'TOO_MANY_REQUESTS',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'PAYLOAD_TOO_LARGE',
  'BAD_GATEWAY',
]);

/**
 * The message to show for a failed call: the server's own when it answered (docs/PRODUCT.md § Messages "show the
 * provider's message"), else the screen's fallback (a network failure is nothing to act on).
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (isTRPCClientError(error) && error.shape !== undefined && error.message) return error.message;
  return fallback;
}

/**
 * A mutation's onError that toasts errorMessage(error, fallback), put into the screen's sentence by
 * `describe` where it has one ("Failed to update status: ...").
 */
export function toastError(fallback: string, describe: (message: string) => string = (message) => message) {
  return (error: unknown) => {
    toast.error(describe(errorMessage(error, fallback)));
  };
}

/** The server's message when it says what to fix; null for internal and network failures. */
function actionableMessage(error: unknown): string | null {
  const code = dataOf(error)?.code;
  return code !== undefined && ACTIONABLE_CODES.has(code) && error instanceof Error ? error.message : null;
}

/** The server's field errors, first message per field. */
function fieldErrorsOf(error: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [field, messages] of Object.entries(dataOf(error)?.fieldErrors ?? {})) {
    if (messages?.[0]) fields[field] = messages[0];
  }
  return fields;
}

export interface ShownServerError {
  /** True when at least one of the server's messages now stands under a field of the form. */
  onFields: boolean;
  /** The server's message when it says what to fix (see actionableMessage), else null. */
  message: string | null;
}

/**
 * Shows a refused submission on the form: each server field error under the form's field of that
 * name (the first one focused). Fields the form does not have are left to `message`.
 */
export function showServerErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
  error: unknown,
): ShownServerError {
  let onFields = false;
  for (const [field, message] of Object.entries(fieldErrorsOf(error))) {
    const path = field as FieldPath<T>;
    if (form.getValues(path) === undefined) continue;
    form.setError(path, { type: 'server', message }, { shouldFocus: !onFields });
    onFields = true;
  }
  return { onFields, message: actionableMessage(error) };
}
