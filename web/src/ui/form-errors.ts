import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../app/api-client';
import { translateMessage } from '../i18n/i18n';

/**
 * Puts a 422's field errors (message keys) on the form's own fields. True when a field took one,
 * so the caller shows no second, general message for the same problem.
 */
export function applyServerFieldErrors<T extends FieldValues>(error: unknown, fields: readonly Path<T>[], setError: UseFormSetError<T>): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const field of fields) {
    const key = error.fieldErrors[field]?.[0];
    if (key) {
      setError(field, { type: 'server', message: key }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}

/** A field error's text: form and server messages are both i18n keys. */
export function fieldErrorText(message: string | undefined): string | undefined {
  return message ? translateMessage(message) : undefined;
}
