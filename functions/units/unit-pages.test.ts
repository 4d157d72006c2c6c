/** The paged units list's pure rules: cursors, the spellings of a name search, matching and order. */
import { describe, expect, it } from 'vitest';
import type { UnitItem } from '../domain/unit/schema';
import { encodePageCursor } from '../platform/page-cursor';
import { compareUnits, decodeCursor, encodeCursor, matcher, normaliseQuery, prefixVariants } from './unit-pages';
import { ValidationError } from '../platform/errors';

const IMEI = '356938031000003';
const unit = (over: Partial<UnitItem> = {}): UnitItem =>
  ({ imei: IMEI, accountId: 'a', name: 'Service van 1', registrationNumber: 'ABC123', vehicleType: 'car', protocol: 'native', driver: 'Kim Berg', ...over }) as UnitItem;

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof ValidationError ? [error.message, error.fieldErrors] : error;
  }
  return 'accepted';
};

describe('cursors', () => {
  it('round-trip a position and a phase, only for the same search and order', () => {
    const at = { name: 'Ångström', imei: IMEI };
    const cursor = encodeCursor('name.desc', 'van', { phase: 'prefix', at });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'name.desc', 'van')).toEqual({ phase: 'prefix', at });
    expect(decodeCursor(encodeCursor('name.asc', 'van', { phase: 'scan', at: null }), 'name.asc', 'van')).toEqual({ phase: 'scan', at: null });
    expect(refusal(() => decodeCursor(cursor, 'name.asc', 'van'))).toEqual(['InvalidCursor', { cursor: ['InvalidCursor'] }]);
    expect(refusal(() => decodeCursor(cursor, 'name.desc', 'vans'))).toEqual(['InvalidCursor', { cursor: ['InvalidCursor'] }]);
  });

  it('refuse anything not made here, changed, or made here with contents no page resumes from', () => {
    const made = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const sealed = (at: (string | null)[]) => encodePageCursor(['units', 'name.asc', ''], at);
    const good = encodeCursor('name.asc', '', { phase: 'scan', at: { name: 'A', imei: IMEI } });
    const [version, at, check] = JSON.parse(Buffer.from(good, 'base64url').toString()) as [number, string[], string];
    const changed = made([version, [at[0], 'B', at[2]], check]);
    for (const raw of ['', '!!', 'e30', changed, made([2, 'name.asc', '', 'scan', 'A', IMEI]), sealed(['prefix', null, null]), sealed(['scan', 'A', '123']), sealed(['other', 'A', IMEI]), sealed(['scan', '', IMEI]), sealed(['scan', 'A', IMEI, 'more'])]) {
      expect(refusal(() => decodeCursor(raw, 'name.asc', '')), raw).toEqual(['InvalidCursor', { cursor: ['InvalidCursor'] }]);
    }
    expect(decodeCursor(good, 'name.asc', '')).toEqual({ phase: 'scan', at: { name: 'A', imei: IMEI } });
  });
});

describe('search', () => {
  it('normalises the words and spells a name search as names are written', () => {
    expect(normaliseQuery('  Service   VAN ')).toBe('service van');
    expect(prefixVariants('service van')).toEqual(['service van', 'Service van', 'Service Van', 'SERVICE VAN']);
    expect(prefixVariants('123')).toEqual(['123']);
  });

  it('matches every word anywhere in name, plate, IMEI, driver or the names given, ignoring case', () => {
    const u = unit();
    expect(matcher('')(u, [])).toBe(true);
    expect(matcher('van abc')(u, [])).toBe(true);
    expect(matcher('kim north')(u, ['North'])).toBe(true);
    expect(matcher('kim north')(u, [])).toBe(false);
    expect(matcher(IMEI.slice(-5))(u, [])).toBe(true);
    expect(matcher('lorry')(unit({ registrationNumber: undefined, driver: undefined }), [])).toBe(false);
  });

  it('orders as the index does: by name then IMEI, or by IMEI, either way round', () => {
    const a = { name: 'B', imei: '2' };
    const b = { name: 'a', imei: '1' };
    const c = { name: 'B', imei: '3' };
    expect([b, c, a].sort(compareUnits('name.asc'))).toEqual([a, c, b]);
    expect([a, b, c].sort(compareUnits('name.desc'))).toEqual([b, c, a]);
    expect([c, a, b].sort(compareUnits('imei.asc'))).toEqual([b, a, c]);
  });
});
