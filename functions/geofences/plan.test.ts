import { describe, expect, it } from 'vitest';
import type { UnitZonesSeen } from '../domain/unit/copies';
import { mayManage, planZoneWrites, type ZonePlanInput } from './plan';

const A = 'account-a';
const unit = (imei: string, zoneIds: string[] = [], accountId = A, zonesMap = zoneIds.length > 0): UnitZonesSeen => ({ imei, accountId, zonesMap, zoneIds });
const input = (fields: Partial<ZonePlanInput> & Pick<ZonePlanInput, 'units'>): ZonePlanInput => ({
  geofenceId: 'g1',
  accountId: A,
  before: [],
  after: [],
  granted: undefined,
  max: 5,
  ...fields,
});
const byImei = (...units: UnitZonesSeen[]) => new Map(units.map((u) => [u.imei, u]));

describe('planZoneWrites', () => {
  it('puts the copy on added and kept units and removes it from dropped ones', () => {
    const units = byImei(unit('kept', ['g1']), unit('added'), unit('dropped', ['g1', 'g2']));
    const out = planZoneWrites(input({ before: ['kept', 'dropped'], after: ['kept', 'added'], units }));
    expect(out).toEqual({ plan: { put: [units.get('kept'), units.get('added')], remove: [units.get('dropped')] } });
  });

  it('refuses a unit with 5 other zones (GeofenceLimitReached) but keeps one that has this zone among its 5', () => {
    const full = unit('full', ['a', 'b', 'c', 'd', 'e']);
    const mine = unit('mine', ['a', 'b', 'c', 'd', 'g1']);
    expect(planZoneWrites(input({ after: ['full'], units: byImei(full) }))).toEqual({ errors: { imeis: ['GeofenceLimitReached'] } });
    expect(planZoneWrites(input({ before: ['mine'], after: ['mine'], units: byImei(mine) }))).toEqual({ plan: { put: [mine], remove: [] } });
  });

  it("refuses units that are missing, another account's or not granted (GeofenceUnitNotFound), each key once", () => {
    const units = byImei(unit('theirs', [], 'account-b'), unit('ours'));
    expect(planZoneWrites(input({ after: ['missing', 'theirs'], units }))).toEqual({ errors: { imeis: ['GeofenceUnitNotFound'] } });
    expect(planZoneWrites(input({ after: ['ours'], units, granted: ['other'] }))).toEqual({ errors: { imeis: ['GeofenceUnitNotFound'] } });
    expect(planZoneWrites(input({ after: ['ours'], units, granted: ['ours'] }))).toEqual({ plan: { put: [units.get('ours')], remove: [] } });
  });

  it('leaves alone dropped units that moved to another account or hold no zones map', () => {
    const units = byImei(unit('moved', ['g1'], 'account-b'), unit('bare', [], A, false));
    expect(planZoneWrites(input({ before: ['moved', 'bare', 'gone'], units }))).toEqual({ plan: { put: [], remove: [] } });
  });

  it('refuses a save that would touch more than 99 units (one transaction holds 100 items)', () => {
    const before = Array.from({ length: 60 }, (_, i) => unit(`old${i}`, ['g1']));
    const after = Array.from({ length: 60 }, (_, i) => unit(`new${i}`));
    const out = planZoneWrites(input({ before: before.map((u) => u.imei), after: after.map((u) => u.imei), units: byImei(...before, ...after) }));
    expect(out).toEqual({ errors: { imeis: ['GeofenceTooManyUnits'] } });
  });
});

describe('mayManage', () => {
  const units = new Map([
    ['granted', { accountId: A }],
    ['other', { accountId: A }],
    ['moved', { accountId: 'account-b' }],
  ]);
  it('lets an admin manage every geofence and an ordinary user those whose current units are all granted', () => {
    expect(mayManage(['granted', 'other'], units, A, undefined)).toBe(true);
    expect(mayManage(['granted', 'moved'], units, A, ['granted'])).toBe(true);
    expect(mayManage([], units, A, ['granted'])).toBe(true);
    expect(mayManage(['granted', 'other'], units, A, ['granted'])).toBe(false);
  });
});
