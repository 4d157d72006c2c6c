import { describe, expect, it } from 'vitest';
import { formatCoordinates } from './coordinates';

describe('formatCoordinates', () => {
  it('writes a pair that reads back as two numbers, whatever the language', () => {
    const text = formatCoordinates(59.3293, 18.0686);
    expect(text).toBe('59.32930, 18.06860');
    expect(text.split(', ').map(Number)).toEqual([59.3293, 18.0686]);
    expect(formatCoordinates(-33.868819, 151.2093)).toBe('-33.86882, 151.20930');
  });
});
