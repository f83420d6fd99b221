import { isTRPCClientError } from '@trpc/client';

// What the server's errorFormatter puts on a failed call, read apart from errors.ts (forms and
// toasts) so that route loaders on the storefront's first page can read it without loading those.

export interface ErrorData {
  code?: string;
  httpStatus?: number;
  fieldErrors?: Record<string, string[] | undefined> | null;
}

/** The data of a failed call; undefined for a network failure or anything else. */
export const dataOf = (error: unknown): ErrorData | undefined =>
  isTRPCClientError(error) ? ((error.data ?? undefined) as ErrorData | undefined) : undefined;
