import { describe, expect, it } from 'vitest';
import { operatingModes } from '../../../../shared/schemas/commands';
import { unitStatus } from '../../../../shared/unit-status';
import { statusAt } from './status-cache';
import type { StoredUnit } from './unit-store';

const T = Date.parse('2025-06-01T10:00:00Z');
const unit = (state: Partial<NonNullable<StoredUnit['state']>> | null, operatingMode: StoredUnit['operatingMode'] = null): StoredUnit => ({
  imei: '1',
  name: 'Van',
  registrationNumber: null,
  vehicleType: 'car',
  color: '#1c7ed6',
  symbol: 'car',
  operatingMode,
  state: state && { ts: new Date(T).toISOString(), lat: 59, lon: 18, speed: null, heading: null, ignition: null, movement: null, lastSeen: new Date(T).toISOString(), ...state },
});

describe('statusAt', () => {
  it('agrees with unitStatus for every kind of unit at every moment, also as time goes on for the same object', () => {
    const kinds = [
      unit(null),
      unit({ speed: 40 }),
      unit({ speed: 0, ignition: true }),
      unit({ speed: 0, ignition: false }),
      unit({ speed: null, movement: true }),
      unit({ lastSeen: 'not a time' }),
      ...operatingModes.flatMap((mode) => [unit({ speed: 50 }, mode), unit({ speed: 0 }, mode)]),
    ];
    for (const u of kinds) {
      for (const minutes of [-1, 0, 5, 7, 30, 95, 96, 60 * 13, 60 * 37, 60 * 24 * 3]) {
        const now = T + minutes * 60_000;
        expect(statusAt(u, now), `${JSON.stringify(u.state)} ${u.operatingMode} +${minutes} min`).toBe(unitStatus(u, now));
      }
    }
  });
});
