/**
 * The sensors' threshold logic and the stage around it: raised once per episode, cleared only past
 * each margin, by MAC or Teltonika slot, only positions newer than the state, and the stage's
 * events keyed by sensor and alarm so a recomputed transition decides the same ones.
 */
import { describe, expect, it } from 'vitest';
import type { SensorAlarmKind } from '../../shared/schemas/sensors';
import type { BleReading } from '../ingest/types';
import type { UnitItem, UnitSensor } from '../domain/unit/schema';
import { testPosition } from '../../test/support/positions';
import { nextAlarms, runSensors, sensorIndex, type SensorStageState } from './readings';
import { readingText, sensorStage } from './stage';

const sensor = (mac: string, thresholds: UnitSensor['thresholds'], createdAt = 1): UnitSensor => ({ mac, name: `S ${mac}`, kind: 'temperature', createdAt, thresholds });
const ble = (mac: string, r: Partial<BleReading>): BleReading => ({ mac, temp: undefined, hum: undefined, door: undefined, bat: undefined, ...r });
const at = (ts: number, readings: BleReading[]) => testPosition(ts, 59.3, 18.1, { ble: readings });
const kinds = (...k: SensorAlarmKind[]) => new Set(k);

describe('nextAlarms', () => {
  it('raises above the maximum and clears only 0.5 C below it', () => {
    const t = { tempMax: 8 };
    expect(nextAlarms(t, { ts: 1, temp: 8 }, kinds())).toEqual(kinds());
    expect(nextAlarms(t, { ts: 1, temp: 8.1 }, kinds())).toEqual(kinds('tempHigh'));
    expect(nextAlarms(t, { ts: 1, temp: 7.6 }, kinds('tempHigh'))).toEqual(kinds('tempHigh'));
    expect(nextAlarms(t, { ts: 1, temp: 7.5 }, kinds('tempHigh'))).toEqual(kinds());
  });

  it('raises below the minimum and clears 0.5 C above it; humidity with 2 %', () => {
    expect(nextAlarms({ tempMin: -20 }, { ts: 1, temp: -20.1 }, kinds())).toEqual(kinds('tempLow'));
    expect(nextAlarms({ tempMin: -20 }, { ts: 1, temp: -19.6 }, kinds('tempLow'))).toEqual(kinds('tempLow'));
    expect(nextAlarms({ tempMin: -20 }, { ts: 1, temp: -19.5 }, kinds('tempLow'))).toEqual(kinds());
    expect(nextAlarms({ humMax: 80 }, { ts: 1, hum: 81 }, kinds())).toEqual(kinds('humHigh'));
    expect(nextAlarms({ humMax: 80 }, { ts: 1, hum: 78.5 }, kinds('humHigh'))).toEqual(kinds('humHigh'));
    expect(nextAlarms({ humMax: 80 }, { ts: 1, hum: 78 }, kinds('humHigh'))).toEqual(kinds());
    expect(nextAlarms({ humMin: 20 }, { ts: 1, hum: 19 }, kinds())).toEqual(kinds('humLow'));
    expect(nextAlarms({ humMin: 20 }, { ts: 1, hum: 22 }, kinds('humLow'))).toEqual(kinds());
  });

  it('follows the door, and a low battery in volts or % with the 3 % margin', () => {
    expect(nextAlarms({ doorOpen: true }, { ts: 1, door: true }, kinds())).toEqual(kinds('doorOpen'));
    expect(nextAlarms({ doorOpen: true }, { ts: 1, door: false }, kinds('doorOpen'))).toEqual(kinds());
    expect(nextAlarms({ doorOpen: true }, { ts: 1, temp: 3 }, kinds('doorOpen'))).toEqual(kinds('doorOpen'));
    expect(nextAlarms({ doorOpen: false }, { ts: 1, door: true }, kinds())).toEqual(kinds());
    expect(nextAlarms({ lowBattery: true }, { ts: 1, bat: 2.59 }, kinds())).toEqual(kinds('lowBattery'));
    expect(nextAlarms({ lowBattery: true }, { ts: 1, bat: 2.67 }, kinds('lowBattery'))).toEqual(kinds('lowBattery'));
    expect(nextAlarms({ lowBattery: true }, { ts: 1, bat: 2.68 }, kinds('lowBattery'))).toEqual(kinds());
    expect(nextAlarms({ lowBattery: true }, { ts: 1, batPct: 14 }, kinds())).toEqual(kinds('lowBattery'));
    expect(nextAlarms({ lowBattery: true }, { ts: 1, batPct: 15.4 }, kinds('lowBattery'))).toEqual(kinds('lowBattery'));
    expect(nextAlarms({ lowBattery: true }, { ts: 1, batPct: 15.5 }, kinds('lowBattery'))).toEqual(kinds());
  });

  it('drops an alarm whose threshold was removed, and keeps one a reading says nothing about', () => {
    expect(nextAlarms({}, { ts: 1, temp: 30 }, kinds('tempHigh'))).toEqual(kinds());
    expect(nextAlarms({ tempMax: 8 }, { ts: 1, hum: 50 }, kinds('tempHigh'))).toEqual(kinds('tempHigh'));
  });
});

describe('runSensors', () => {
  const sensors = { a: sensor('AC23F4100001', { tempMax: 8 }, 2), b: sensor('AC23F4100002', { doorOpen: true }, 1) };

  it('maps MACs and Teltonika slots in the order the sensors were added', () => {
    const index = sensorIndex(sensors);
    expect(index.get('AC23F4100001')).toBe('a');
    expect(index.get('#1')).toBe('b');
    expect(index.get('#2')).toBe('a');
  });

  it('raises once per episode, ignores positions at or before the state, and forgets removed sensors', () => {
    const first = runSensors(sensors, undefined, [
      at(1000, [ble('AC23F4100001', { temp: 5 })]),
      at(2000, [ble('ac23f4100001', { temp: 9 }), ble('#1', { door: true }), ble('AC23F41FFFFF', { temp: 50 })]),
      at(3000, [ble('AC23F4100001', { temp: 10 })]),
    ]);
    expect(first.alarms.map((a) => [a.sensorId, a.kind, a.ts, a.value, a.limit])).toEqual([
      ['a', 'tempHigh', 2000, 9, 8],
      ['b', 'doorOpen', 2000, null, null],
    ]);
    expect(first.state).toEqual<SensorStageState>({ t: 3000, s: { a: { ts: 3000, temp: 10, al: ['tempHigh'] }, b: { ts: 2000, door: true, al: ['doorOpen'] } } });

    // Redelivered and late positions decide nothing.
    const again = runSensors(sensors, first.state, [at(2000, [ble('AC23F4100001', { temp: 1 })]), at(3000, [ble('#1', { door: false })])]);
    expect(again.alarms).toEqual([]);
    expect(again.state).toEqual(first.state);

    const cleared = runSensors(sensors, first.state, [at(4000, [ble('AC23F4100001', { temp: 7 })]), at(5000, [ble('AC23F4100001', { temp: 8.5 })])]);
    expect(cleared.alarms.map((a) => [a.kind, a.ts])).toEqual([['tempHigh', 5000]]);

    const onlyB = runSensors({ b: sensors.b }, first.state, [at(6000, [])]);
    expect(onlyB.state).toEqual({ t: 6000, s: { b: first.state!.s['b'] } });
    expect(runSensors({}, first.state, [at(7000, [])]).state).toBeUndefined();
  });
});

describe('the stage', () => {
  const unit = { imei: '356307042441013', accountId: 'a', sensors: { a: sensor('AC23F4100001', { tempMin: 2, tempMax: 8 }) } } as unknown as UnitItem;

  it('turns each raised alarm into a sensorAlarm event effect keyed by sensor and kind', () => {
    const result = sensorStage.run({ unit, previous: undefined, before: undefined, after: { ts: 2000, lat: 59.3, lon: 18.1, lastSeen: 2000 }, positions: [at(2000, [ble('AC23F4100001', { temp: 1.25 })])], late: [], receivedAt: 2000 });
    expect(result.effects).toEqual([
      {
        id: 'event:sensorAlarm:2000:a:tempLow',
        kind: 'event',
        payload: expect.objectContaining({ type: 'sensorAlarm', ts: 2000, key: 'a:tempLow', alarm: true, details: expect.objectContaining({ sensor: 'S AC23F4100001', alarm: 'tempLow', reading: '1.3 °C (min 2 °C)' }) }),
      },
    ]);
    expect(sensorStage.parse(result.state)).toEqual(result.state);
    expect(sensorStage.parse({ t: 'x' })).toBeUndefined();
  });

  it('keeps nothing for a unit without sensors', () => {
    expect(sensorStage.run({ unit: { ...unit, sensors: undefined }, previous: { t: 1, s: {} }, before: undefined, after: { ts: 2, lat: 0, lon: 0, lastSeen: 2 }, positions: [], late: [], receivedAt: 2 }).state).toBeUndefined();
  });

  it('writes readings for people', () => {
    expect(readingText({ kind: 'humHigh', value: 85, limit: 80 })).toBe('85 % (max 80 %)');
    expect(readingText({ kind: 'lowBattery', value: 2.5, limit: 2.6 })).toBe('2.5 V (min 2.6 V)');
    expect(readingText({ kind: 'lowBattery', value: 9, limit: 15 })).toBe('9 % (min 15 %)');
    expect(readingText({ kind: 'doorOpen', value: null, limit: null })).toBe('');
  });
});
