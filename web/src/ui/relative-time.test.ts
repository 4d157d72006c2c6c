import { describe, expect, it } from 'vitest';
import { absoluteTime, relativeTime } from './relative-time';

describe('relativeTime', () => {
  const now = Date.parse('2025-03-10T12:00:00Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
  it.each([
    ['en-GB', 10, 'now'],
    ['en-GB', 5 * 60, '5 minutes ago'],
    ['en-GB', 2 * 60 + 10, '2 minutes ago'],
    ['en-GB', 3 * 3600 + 59 * 60, '3 hours ago'],
    ['en-GB', 26 * 3600, 'yesterday'],
    ['en-GB', 3 * 86_400, '3 days ago'],
    ['en-GB', 65 * 86_400, '2 months ago'],
    ['en-GB', 800 * 86_400, '2 years ago'],
    ['sv-SE', 5 * 60, 'för 5 minuter sedan'],
    ['sv', 3 * 3600, 'för 3 timmar sedan'],
    ['nb-NO', 5 * 60, 'for 5 minutter siden'],
    ['nb', 2 * 86_400, 'i forgårs'],
    ['sv-SE', 10, 'nu'],
    // Ahead of the browser's clock: a skew, not the future.
    ['en-GB', -90, 'now'],
  ])('%s, %i s ago: %s', (locale, seconds, text) => {
    expect(relativeTime(ago(seconds), now, locale)).toBe(text);
  });

  it('counts calendar days in the time zone, not 24-hour spans', () => {
    // 02:44 on 29 November in Stockholm.
    const night = Date.parse('2026-11-29T01:44:00Z');
    const at = (local: string) => new Date(`${local}+01:00`).toISOString();
    const zone = { timeZone: 'Europe/Stockholm' };
    expect(relativeTime(at('2026-11-29T00:30:00'), night, 'en-GB', zone)).toBe('2 hours ago');
    expect(relativeTime(at('2026-11-28T23:30:00'), night, 'en-GB', zone)).toBe('yesterday');
    expect(relativeTime(at('2026-11-28T00:10:00'), night, 'en-GB', zone)).toBe('yesterday');
    expect(relativeTime(at('2026-11-27T22:00:00'), night, 'en-GB', zone)).toBe('2 days ago');
    expect(relativeTime(at('2026-11-26T08:00:00'), night, 'sv-SE', zone)).toBe('för 3 dagar sedan');
    expect(relativeTime(at('2026-10-29T12:00:00'), night, 'en-GB', zone)).toBe('last month');
    expect(relativeTime(at('2026-10-30T12:00:00'), night, 'en-GB', zone)).toBe('30 days ago');
    // The same instants in New York are a day apart, not two.
    expect(relativeTime(at('2026-11-27T22:00:00'), night, 'en-GB', { timeZone: 'America/New_York' })).toBe('yesterday');
  });

  it('counts seconds under a minute when asked', () => {
    expect(relativeTime(ago(45), now, 'en', { seconds: true })).toBe('45 seconds ago');
    expect(relativeTime(ago(0), now, 'en', { seconds: true })).toBe('now');
    expect(relativeTime(ago(-2), now, 'en', { seconds: true })).toBe('now');
    expect(relativeTime(ago(90), now, 'en', { seconds: true })).toBe('1 minute ago');
  });
});

describe('absoluteTime', () => {
  it('shows the instant in the given time zone and language, with seconds when asked', () => {
    expect(absoluteTime('2025-03-10T08:05:00Z', 'en-GB', { timeZone: 'Europe/Stockholm' })).toBe('10 Mar 2025, 09:05');
    expect(absoluteTime('2025-07-10T08:05:00Z', 'sv-SE', { timeZone: 'Europe/Stockholm' })).toBe('10 juli 2025 10:05');
    expect(absoluteTime('2025-03-10T08:05:00Z', 'en-GB', { timeZone: 'Europe/London' })).toBe('10 Mar 2025, 08:05');
    expect(absoluteTime('2025-03-10T08:05:07Z', 'en-GB', { timeZone: 'Europe/London', seconds: true })).toBe('10 Mar 2025, 08:05:07');
  });
});
