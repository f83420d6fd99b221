import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { isUniqueViolation } from '../db/errors';

// The errors procedures throw, in one place: "not found" with the same wording everywhere, and
// refusals that belong to one form field (the errorFormatter puts them in data.fieldErrors, so the
// client shows them under that field without reading the message).

/** Messages per form field (dotted paths for nested fields, e.g. "shipping_address.zip"). */
export class FieldErrors extends Error {
  override name = 'FieldErrors';
  constructor(readonly fields: Record<string, string[]>) {
    super(Object.values(fields)[0]?.[0] ?? 'Invalid input');
  }
}

/** A refusal about one field: the message is shown under it. */
export function fieldError(code: TRPC_ERROR_CODE_KEY, field: string, message: string): TRPCError {
  return new TRPCError({ code, message, cause: new FieldErrors({ [field]: [message] }) });
}

/** NOT_FOUND with the message "{what} not found", e.g. notFound('Product'). */
export function notFound(what: string): TRPCError {
  return new TRPCError({ code: 'NOT_FOUND', message: `${what} not found` });
}

/** The row, or NOT_FOUND "{what} not found" when the query found none. */
export function assertFound<T>(row: T | null | undefined, what: string): T {
  if (row === null || row === undefined) throw notFound(what);
  return row;
}

/** A LIKE/ILIKE pattern matching `text` anywhere; %, _ and \ in the text match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Runs a write; a unique violation on one of the named columns becomes a CONFLICT on that field
 * (constraint names carry the column, e.g. products_sku_number_key). Anything else is rethrown.
 */
export async function withUniqueColumns<T>(write: () => Promise<T>, messages: Record<string, string>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) {
      const constraint = (error as { constraint?: string }).constraint ?? '';
      const column = Object.keys(messages).find((name) => constraint.includes(`_${name}_`));
      if (column) throw fieldError('CONFLICT', column, messages[column]!);
    }
    throw error;
  }
}

/** withUniqueColumns for the common case: a slug another row already uses. */
export function withUniqueSlug<T>(write: () => Promise<T>, message: string): Promise<T> {
  return withUniqueColumns(write, { slug: message });
}
