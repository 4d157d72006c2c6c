import { describe, expect, it } from 'vitest';
import { positionsQuerySchema } from '../../../../shared/schemas/tracking';
import { canOpenHistory, historyUrl, readHistoryLink, sameLink, withHistoryLink } from './history-url';

const IMEI = '356307042441013';

describe('historyUrl', () => {
  it('writes the map path with the unit and the period as UTC instants', () => {
    const url = historyUrl(IMEI, '2026-05-04T10:03:27+02:00', new Date('2026-05-04T08:41:00Z'));
    expect(url).toBe(`/user/realtime-tracking?history=${IMEI}&from=2026-05-04T08%3A03%3A27.000Z&to=2026-05-04T08%3A41%3A00.000Z`);
    expect(historyUrl(IMEI, 0, 60_000)).toContain('from=1970-01-01T00%3A00%3A00.000Z');
  });

  it('reads back what it wrote, in the form the positions API takes', () => {
    const url = historyUrl(IMEI, '2026-05-04T10:03:27.250+02:00', '2026-05-04T10:41:00+02:00');
    const link = readHistoryLink(url.slice(url.indexOf('?')));
    expect(link).toEqual({ imei: IMEI, from: '2026-05-04T08:03:27.250Z', to: '2026-05-04T08:41:00.000Z' });
    expect(positionsQuerySchema.safeParse({ from: link?.from, to: link?.to }).success).toBe(true);
  });

  it('refuses a time that is no date', () => {
    expect(() => historyUrl(IMEI, 'yesterday', '2026-05-04T10:41:00Z')).toThrow(RangeError);
  });
});

describe('readHistoryLink', () => {
  it('needs a unit', () => {
    expect(readHistoryLink('')).toBeNull();
    expect(readHistoryLink('?from=2026-05-04T08:00:00Z')).toBeNull();
    expect(readHistoryLink('?history=12345')).toBeNull();
    expect(readHistoryLink(`?history=${IMEI}x`)).toBeNull();
  });

  it('keeps a missing or odd period as written, for the form to check', () => {
    expect(readHistoryLink(`?history=${IMEI}`)).toEqual({ imei: IMEI, from: null, to: null });
    expect(readHistoryLink(`?history=${IMEI}&from=soon&to=`)).toEqual({ imei: IMEI, from: 'soon', to: '' });
  });

  it('reads the older form with the unit in imei', () => {
    expect(readHistoryLink(`?imei=${IMEI}&history=1&from=a&to=b`)).toEqual({ imei: IMEI, from: 'a', to: 'b' });
    expect(readHistoryLink(`?imei=${IMEI}`)).toBeNull();
  });
});

describe('withHistoryLink', () => {
  it('sets and removes only its own parameters', () => {
    const set = withHistoryLink(new URLSearchParams('?lang=sv'), { imei: IMEI, from: 'a', to: 'b' });
    expect(set.toString()).toBe(`lang=sv&history=${IMEI}&from=a&to=b`);
    expect(withHistoryLink(set, null).toString()).toBe('lang=sv');
  });

  it('rewrites the older form', () => {
    const next = withHistoryLink(new URLSearchParams(`imei=${IMEI}&history=1&from=a&to=b`), { imei: IMEI, from: 'c', to: 'd' });
    expect(next.toString()).toBe(`history=${IMEI}&from=c&to=d`);
  });

  it('compares links by value', () => {
    expect(sameLink({ imei: IMEI, from: 'a', to: 'b' }, { imei: IMEI, from: 'a', to: 'b' })).toBe(true);
    expect(sameLink({ imei: IMEI, from: 'a', to: 'b' }, { imei: IMEI, from: 'a', to: null })).toBe(false);
    expect(sameLink(null, null)).toBe(true);
    expect(sameLink(null, { imei: IMEI, from: null, to: null })).toBe(false);
  });
});

describe('canOpenHistory', () => {
  it('is the real-time map feature', () => {
    expect(canOpenHistory({ realtime_map: true })).toBe(true);
    expect(canOpenHistory({ realtime_map: false })).toBe(false);
    expect(canOpenHistory(null)).toBe(false);
    expect(canOpenHistory(undefined)).toBe(false);
  });
});
