import type { SearchSchemaInput } from '@tanstack/react-router';
import { isUuid } from '../shared/ids';

// Readers of URL search params for routes' validateSearch. Route definitions load with the
// store's first page, so they read their params without a schema library: zod alone weighed a
// quarter of the storefront's first JavaScript. The router has JSON-parsed each value already
// (?page=2 arrives as the number 2); a value of the wrong kind reads as absent, so a hand-edited
// or stale address falls back to the default instead of failing the page.

/** One of `values`, or absent. */
export const oneOf = <const T extends string>(values: readonly T[], value: unknown): T | undefined =>
  (values as readonly unknown[]).includes(value) ? (value as T) : undefined;

/** Text, trimmed, of 1 to `maxLength` characters, or absent. */
export const text = (value: unknown, maxLength = 2_000): string | undefined => {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed && trimmed.length <= maxLength ? trimmed : undefined;
};

/** A page number (1 to 100,000), or absent. */
export const pageNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 100_000 ? value : undefined;

/** true or false, or absent. */
export const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/** An id (UUID), or absent. */
export const id = (value: unknown): string | undefined => (isUuid(value) ? value : undefined);

/**
 * A route's validateSearch: `read` turns the raw params into what the page reads. `Params` is
 * what links may pass, every param optional (a link to /shop names no sort).
 */
export const searchParams =
  <Params extends object>() =>
  <Read>(read: (raw: { [Key in keyof Params]?: unknown }) => Read) =>
  (raw: Params & SearchSchemaInput): Read =>
    read(raw);
