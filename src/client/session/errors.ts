import { isTRPCClientError } from '@trpc/client';

/**
 * The message to show for a failed call: the server's own message when the server answered
 * (SPEC §8 "show the provider's message"), else the screen's fallback (a network failure or a
 * bug is not something the user can act on).
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (isTRPCClientError(error) && error.shape !== undefined && error.message) return error.message;
  return fallback;
}

export const UNEXPECTED_ERROR = 'An unexpected error occurred';
