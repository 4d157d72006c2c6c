/**
 * The add-unit form's rules without React: the request's own schema (shared/schemas/add-unit.ts)
 * checks the fields in the browser with the same message keys the server answers with.
 */
import { addUnitRequestSchema, type AddUnitRequest } from '../../../../shared/schemas/add-unit';

export interface AddUnitForm {
  imei: string;
  name: string;
  vehicleType: string;
  userIds: string[];
}

export const emptyAddUnitForm: AddUnitForm = { imei: '', name: '', vehicleType: 'car', userIds: [] };

/** Field (request name) to its first message key. */
export type AddUnitErrors = Partial<Record<keyof AddUnitForm, string>>;

export function validateAddUnit(form: AddUnitForm): { request: AddUnitRequest | null; errors: AddUnitErrors } {
  const parsed = addUnitRequestSchema.safeParse(form);
  if (parsed.success) return { request: parsed.data, errors: {} };
  const errors: AddUnitErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'imei') as keyof AddUnitForm;
    errors[field] ??= issue.message;
  }
  return { request: null, errors };
}

/** A 422's field errors (keys) on the form's fields. */
export function serverErrors(fieldErrors: Readonly<Record<string, readonly string[]>>): AddUnitErrors {
  const errors: AddUnitErrors = {};
  for (const field of ['imei', 'name', 'vehicleType', 'userIds'] as const) {
    const key = Object.entries(fieldErrors).find(([name]) => name === field || name.startsWith(`${field}.`))?.[1][0];
    if (key) errors[field] = key;
  }
  return errors;
}
