import { describe, expect, it } from 'vitest';
import { isValidTimeZone } from './common';

describe('isValidTimeZone', () => {
  it('knows IANA zones, also when asked again, and refuses made-up ones every time', () => {
    for (let i = 0; i < 2; i++) {
      expect(isValidTimeZone('Europe/Stockholm')).toBe(true);
      expect(isValidTimeZone('Europe/Oslo')).toBe(true);
      expect(isValidTimeZone('UTC')).toBe(true);
      expect(isValidTimeZone('Europe/Nowhere')).toBe(false);
      expect(isValidTimeZone('')).toBe(false);
      expect(isValidTimeZone('+99:99')).toBe(false);
    }
  });
});
