import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

// A refused save: the server's message, and the field it belongs to when the shared schema or a
// unique slug says so. Used by the category, plan and settings forms.

interface ServerError {
  message: string;
  data?: { code?: string; fieldErrors?: Record<string, string[] | undefined> | null } | null;
}

/** The reason worth showing next to the spec's text: validation and conflicts, not internal failures. */
export function specificReason(error: ServerError): string | null {
  const code = error.data?.code;
  return code === 'BAD_REQUEST' || code === 'CONFLICT' || code === 'NOT_FOUND' ? error.message : null;
}

/** Puts the server's field messages under the form's fields (a conflict is about the slug); true when any was shown. */
export function showFieldErrors<T extends FieldValues>(error: ServerError, setError: UseFormSetError<T>, fields: readonly Path<T>[]): boolean {
  const fieldErrors = error.data?.fieldErrors ?? {};
  let shown = false;
  for (const field of fields) {
    const message = fieldErrors[field]?.[0];
    if (message) {
      setError(field, { message });
      shown = true;
    }
  }
  if (error.data?.code === 'CONFLICT' && fields.includes('slug' as Path<T>)) {
    setError('slug' as Path<T>, { message: error.message });
    shown = true;
  }
  return shown;
}
