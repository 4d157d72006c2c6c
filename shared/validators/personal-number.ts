/**
 * Swedish personnummer as the registration asks for it (docs/decisions/0007-registration.md): YYYYMMDDNNNC, with or
 * without a hyphen before the last four digits, a real date and a valid Luhn check digit. The
 * maintained `personnummer` package checks date and check digit; the 12/13-character shape is
 * ours, because the package also accepts the short 10-digit and `+` forms the spec rules out.
 * Coordination and interim numbers are refused: their "day" is not a date.
 */
import Personnummer from 'personnummer';

export type PersonalNumberError = 'SpecifyPersonalNum' | 'InvalidPersonalNumLength' | 'InvalidPersonalNum';

const SHAPE = /^\d{8}-?\d{4}$/;

/** The message key of what is wrong with a personal number, or null when it is valid. */
export function personalNumberError(value: string): PersonalNumberError | null {
  const pin = value.trim();
  if (!pin) return 'SpecifyPersonalNum';
  if (!/^[\d-]+$/.test(pin)) return 'InvalidPersonalNum';
  if (!SHAPE.test(pin)) return 'InvalidPersonalNumLength';
  return Personnummer.valid(pin, { allowCoordinationNumber: false, allowInterimNumber: false }) ? null : 'InvalidPersonalNum';
}

/** The stored form: 12 digits, no hyphen. Call only on a valid number. */
export function normalizePersonalNumber(value: string): string {
  return value.trim().replace('-', '');
}
