/**
 * Login names are case-insensitive (spec: a-z, 0-9, - and _). Both identity adapters key users by
 * this form, so "Anna" and "anna" are one user in either runtime.
 */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}
