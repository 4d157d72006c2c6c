import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const T0 = Date.UTC(2025, 4, 2, 9, 0, 0);
const ago = (ms: number) => new Date(T0 - ms).toISOString();

describe('relative times', () => {
  it('picks the largest whole unit, in the language asked for', () => {
    expect(relativeTime(ago(0), T0, 'en')).toBe('now');
    expect(relativeTime(ago(45_000), T0, 'en')).toBe('45 seconds ago');
    expect(relativeTime(ago(2 * 60_000 + 10_000), T0, 'en')).toBe('2 minutes ago');
    expect(relativeTime(ago(3 * 3_600_000), T0, 'sv')).toBe('för 3 timmar sedan');
    expect(relativeTime(ago(2 * 86_400_000), T0, 'nb')).toBe('i forgårs');
  });

  it('shows a time slightly ahead of the browser clock as now', () => {
    expect(relativeTime(new Date(T0 + 2000).toISOString(), T0, 'en')).toBe('now');
  });
});
