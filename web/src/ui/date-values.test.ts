import { describe, expect, it } from 'vitest';
import { normaliseTime } from './date-values';

describe('normaliseTime', () => {
  it('tidies what is typed to 24-hour HH:mm', () => {
    expect(normaliseTime('09:30')).toBe('09:30');
    expect(normaliseTime('9:30')).toBe('09:30');
    expect(normaliseTime('9.30')).toBe('09:30');
    expect(normaliseTime('930')).toBe('09:30');
    expect(normaliseTime('0930')).toBe('09:30');
    expect(normaliseTime('1745')).toBe('17:45');
    expect(normaliseTime('9')).toBe('09:00');
    expect(normaliseTime('23')).toBe('23:00');
    expect(normaliseTime(' 18:00 ')).toBe('18:00');
  });

  it('is null for what is no time of day', () => {
    for (const text of ['', '24:00', '12:60', '2:30 PM', 'noon', '12345', '99', '9:3']) expect(normaliseTime(text)).toBeNull();
  });
});
