// PostgreSQL error codes the app turns into clear messages.
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

const codeOf = (error: unknown) => (typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined);

export const isUniqueViolation = (error: unknown) => codeOf(error) === UNIQUE_VIOLATION;
export const isForeignKeyViolation = (error: unknown) => codeOf(error) === FOREIGN_KEY_VIOLATION;

/**
 * A PostgreSQL data exception (SQLSTATE class 22): a NUL byte in text, a value that does not
 * cast, a number out of range. The input was bad; the server is fine.
 */
export const isDataException = (error: unknown) => {
  const code = codeOf(error);
  return typeof code === 'string' && code.startsWith('22');
};
