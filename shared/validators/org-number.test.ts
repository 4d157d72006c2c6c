import { describe, expect, it } from 'vitest';
import { ORG_NUMBER_MAX_LENGTH, orgNumberError } from './org-number';

describe('orgNumberError', () => {
  it.each(['556036-0793', '5560360793', '923609016', '12-34-56'])('accepts digits and hyphens: %s', (value) => {
    expect(orgNumberError(value)).toBeNull();
  });

  it('accepts a number without a Swedish check digit (Norwegian and British numbers are allowed)', () => {
    expect(orgNumberError('556036-0794')).toBeNull();
  });

  it('requires a number', () => {
    expect(orgNumberError('')).toBe('SpecifyOrgNumber');
    expect(orgNumberError('  ')).toBe('SpecifyOrgNumber');
  });

  it.each(['SC123456', '556036 0793', '+4655603607', '556036/0793'])('refuses anything but digits and hyphens: %s', (value) => {
    expect(orgNumberError(value)).toBe('OrgNumberDigitsAndHyphens');
  });

  it('allows at most 50 characters', () => {
    expect(orgNumberError('1'.repeat(ORG_NUMBER_MAX_LENGTH))).toBeNull();
    expect(orgNumberError('1'.repeat(ORG_NUMBER_MAX_LENGTH + 1))).toBe('MaxLength50');
  });
});
