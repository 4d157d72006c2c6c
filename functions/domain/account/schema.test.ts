import { describe, expect, it } from 'vitest';
import { CorruptAccountItemError, parseAccountFields, parseAccountItem } from './schema';

const registered = {
  accountId: 'a1',
  parentId: null,
  type: 'company',
  name: 'Åkeri AB',
  subsiteId: 2,
  features: { realtimeMap: true, carBooking: false, rfid: true, safeReturnHome: false, basicOnly: false },
  smsCredits: 3,
  retentionDays: 90,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('the accounts item', () => {
  it('parses what registration writes, keeping attributes beyond the schema', () => {
    const account = parseAccountItem({ ...registered, searchBucket: 'å', smsCreditsOutNotifiedAt: '2026-02-01T00:00:00.000Z' });
    expect(account).toMatchObject(registered);
    expect((account as Record<string, unknown>)['searchBucket']).toBe('å');
  });

  it('parses a legacy account without the optional fields, and a flag it lacks is off', () => {
    const account = parseAccountItem({ accountId: 'a2', type: 'private', name: 'Old', subsiteId: 0, features: { realtimeMap: true } });
    expect(account.features).toEqual({ realtimeMap: true, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: false });
    expect(account.retentionDays).toBeUndefined();
    expect(account.featureProfiles).toBeUndefined();
  });

  it('names the malformed field and the account', () => {
    expect(() => parseAccountItem({ ...registered, smsCredits: 'many' })).toThrow(CorruptAccountItemError);
    expect(() => parseAccountItem({ ...registered, smsCredits: 'many' })).toThrow('accounts item "a1" is malformed at smsCredits');
    expect(() => parseAccountItem({ accountId: 'a3', name: 'No type' })).toThrow(/malformed at type, subsiteId/);
  });

  it('reads a malformed feature profile as absent, as a deleted one', () => {
    const good = { name: 'Drivers', features: ['realtimeMap'], reports: [], createdAt: '2026-01-01T00:00:00.000Z' };
    const account = parseAccountItem({ ...registered, featureProfiles: { p1: good, p2: { name: 'Broken' } } });
    expect(Object.keys(account.featureProfiles ?? {})).toEqual(['p1']);
  });

  it('checks a projection only for the fields asked for', () => {
    expect(parseAccountFields({ workingHours: { enabled: true, days: [1], from: '08:00', to: '17:00', timeZone: 'Europe/Stockholm' } }, ['workingHours']).workingHours?.enabled).toBe(true);
    expect(parseAccountFields({}, ['features', 'retentionDays'])).toEqual({});
    expect(() => parseAccountFields({ retentionDays: '30' }, ['retentionDays'])).toThrow('malformed at retentionDays');
  });
});
