/**
 * Organisation number as the spec has it: required, digits and hyphens only, at most 50
 * characters. Deliberately without the `organisationsnummer` package's checksum: customers
 * register from Sweden, Norway and the United Kingdom, and its Swedish rule (10 digits, Luhn)
 * would refuse Norwegian and British company numbers that the spec accepts.
 */
export const ORG_NUMBER_MAX_LENGTH = 50;

export type OrgNumberError = 'SpecifyOrgNumber' | 'OrgNumberDigitsAndHyphens' | 'MaxLength50';

/** The message key of what is wrong with an organisation number, or null when it is acceptable. */
export function orgNumberError(value: string): OrgNumberError | null {
  const number = value.trim();
  if (!number) return 'SpecifyOrgNumber';
  if (!/^[\d-]+$/.test(number)) return 'OrgNumberDigitsAndHyphens';
  if (number.length > ORG_NUMBER_MAX_LENGTH) return 'MaxLength50';
  return null;
}
