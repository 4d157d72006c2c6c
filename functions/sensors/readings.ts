/**
 * What a unit's BLE sensors reported and which of their thresholds that crosses (spec sections 3,
 * 4 and 9). Pure: the ingest stage (stage.ts) runs it over a batch's positions in device-time order
 * with the unit's sensor copies (unit-copies `sensors`) and its previous state.
 *
 * Readings are matched to sensors by MAC (native trackers report `ble: [{ mac, ... }]`) or, for
 * Teltonika trackers, by slot (`#1`..`#4`, see functions/ingest/decode-teltonika.ts): the n-th
 * sensor added to the unit. A reading of a MAC the unit does not have is ignored.
 *
 * Each threshold raises on the reading that crosses it and clears only past a margin (hysteresis),
 * so a value wobbling on the line does not flap: 0.5 C for temperature, 2 % for humidity, 3 % of
 * the battery threshold (spec section 9). A door alarm is raised when the door opens and cleared
 * when it closes. An alarm is raised once per episode; positions at or before the last evaluated
 * one decide nothing (redelivered or late from a tracker's buffer).
 */
import type { SensorAlarmKind } from '../../shared/schemas/sensors';
import type { BleReading, Position } from '../ingest/types';
import type { UnitSensor } from '../domain/unit/schema';

export const TEMP_HYSTERESIS_C = 0.5;
export const HUM_HYSTERESIS_PCT = 2;
/** A sensor's coin cell (3 V nominal) is low below this (native trackers report volts). */
export const SENSOR_LOW_BATTERY_VOLTS = 2.6;
/** Teltonika trackers report the sensor's battery level in %: low below this. */
export const SENSOR_LOW_BATTERY_PCT = 15;
/** The spec's margin: a low battery clears 3 % above its threshold. */
export const SENSOR_BATTERY_MARGIN = 0.03;

/** One sensor's last reading and the alarms it is in, as the stage keeps them (compact: it rides on the units item). */
export interface SensorMemory {
  /** Device time of the last reading, epoch ms. */
  ts: number;
  temp?: number;
  hum?: number;
  door?: boolean;
  bat?: number;
  batPct?: number;
  /** Alarms raised and not cleared. */
  al?: SensorAlarmKind[];
}

export interface SensorStageState {
  /** The newest position evaluated. */
  t: number;
  /** By sensor id. */
  s: Record<string, SensorMemory>;
}

export interface RaisedSensorAlarm {
  sensorId: string;
  kind: SensorAlarmKind;
  ts: number;
  lat: number;
  lon: number;
  sensor: UnitSensor;
  /** The value that crossed (C, %, V or %), null for the door. */
  value: number | null;
  /** The threshold it crossed, null for the door. */
  limit: number | null;
}

type Sensors = Readonly<Record<string, UnitSensor>>;

const NO_ALARMS: ReadonlySet<SensorAlarmKind> = new Set();

/** The sensor id a reading belongs to: by MAC, or by Teltonika slot `#n` (the n-th sensor added). */
export function sensorIndex(sensors: Sensors): Map<string, string> {
  const index = new Map<string, string>();
  const ordered = Object.entries(sensors).sort(([a, x], [b, y]) => x.createdAt - y.createdAt || a.localeCompare(b));
  ordered.forEach(([id, s], i) => {
    index.set(s.mac, id);
    index.set(`#${i + 1}`, id);
  });
  return index;
}

/**
 * One level alarm: raised past its threshold, held until back inside the margin; without a value
 * in the reading it stays as it was. Module-level rather than a closure per reading: ingest runs it
 * for every sensor of every record.
 */
function level(now: Set<SensorAlarmKind>, was: ReadonlySet<SensorAlarmKind>, kind: SensorAlarmKind, value: number | undefined, above: boolean, raiseAt: number, clearAt: number): void {
  if (value === undefined) {
    if (was.has(kind)) now.add(kind);
    return;
  }
  const limit = was.has(kind) ? clearAt : raiseAt;
  if (above ? value > limit : value < limit) now.add(kind);
}

/** The alarms a sensor is in after a reading, given the ones it was in (with each threshold's margin). */
export function nextAlarms(thresholds: UnitSensor['thresholds'], reading: SensorMemory, was: ReadonlySet<SensorAlarmKind>): Set<SensorAlarmKind> {
  const now = new Set<SensorAlarmKind>();
  const { tempMin, tempMax, humMin, humMax } = thresholds;
  if (tempMax !== undefined) level(now, was, 'tempHigh', reading.temp, true, tempMax, tempMax - TEMP_HYSTERESIS_C);
  if (tempMin !== undefined) level(now, was, 'tempLow', reading.temp, false, tempMin, tempMin + TEMP_HYSTERESIS_C);
  if (humMax !== undefined) level(now, was, 'humHigh', reading.hum, true, humMax, humMax - HUM_HYSTERESIS_PCT);
  if (humMin !== undefined) level(now, was, 'humLow', reading.hum, false, humMin, humMin + HUM_HYSTERESIS_PCT);
  if (thresholds.doorOpen) {
    if (reading.door === undefined) {
      if (was.has('doorOpen')) now.add('doorOpen');
    } else if (reading.door) now.add('doorOpen');
  }
  if (thresholds.lowBattery) {
    if (reading.bat !== undefined) level(now, was, 'lowBattery', reading.bat, false, SENSOR_LOW_BATTERY_VOLTS, SENSOR_LOW_BATTERY_VOLTS * (1 + SENSOR_BATTERY_MARGIN));
    else level(now, was, 'lowBattery', reading.batPct, false, SENSOR_LOW_BATTERY_PCT, SENSOR_LOW_BATTERY_PCT * (1 + SENSOR_BATTERY_MARGIN));
  }
  return now;
}

function memoryOf(r: BleReading, ts: number): SensorMemory {
  const m: SensorMemory = { ts };
  if (r.temp !== undefined) m.temp = r.temp;
  if (r.hum !== undefined) m.hum = r.hum;
  if (r.door !== undefined) m.door = r.door;
  if (r.bat !== undefined) m.bat = r.bat;
  if (r.batPct !== undefined) m.batPct = r.batPct;
  return m;
}

function crossing(kind: SensorAlarmKind, m: SensorMemory, t: UnitSensor['thresholds']): { value: number | null; limit: number | null } {
  switch (kind) {
    case 'tempHigh':
      return { value: m.temp ?? null, limit: t.tempMax ?? null };
    case 'tempLow':
      return { value: m.temp ?? null, limit: t.tempMin ?? null };
    case 'humHigh':
      return { value: m.hum ?? null, limit: t.humMax ?? null };
    case 'humLow':
      return { value: m.hum ?? null, limit: t.humMin ?? null };
    case 'lowBattery':
      return m.bat !== undefined ? { value: m.bat, limit: SENSOR_LOW_BATTERY_VOLTS } : { value: m.batPct ?? null, limit: SENSOR_LOW_BATTERY_PCT };
    case 'doorOpen':
      return { value: null, limit: null };
  }
}

/**
 * Advances the sensors' state over the positions newer than it, in device-time order. Sensors no
 * longer on the unit are forgotten. Answers undefined when the unit has no sensors (nothing to keep).
 */
export function runSensors(
  sensors: Sensors | undefined,
  previous: SensorStageState | undefined,
  positions: readonly Position[],
): { state: SensorStageState | undefined; alarms: RaisedSensorAlarm[] } {
  if (!sensors || Object.keys(sensors).length === 0) return { state: undefined, alarms: [] };
  const state: SensorStageState = { t: previous?.t ?? -Infinity, s: {} };
  for (const id of Object.keys(sensors)) {
    const kept = previous?.s[id];
    if (kept) state.s[id] = kept;
  }
  const alarms: RaisedSensorAlarm[] = [];
  let index: Map<string, string> | undefined;
  for (const p of positions) {
    if (p.ts <= state.t) continue;
    state.t = p.ts;
    if (!p.ble) continue;
    index ??= sensorIndex(sensors);
    for (const r of p.ble) {
      const id = index.get(r.mac.toUpperCase());
      if (id === undefined) continue;
      const sensor = sensors[id]!;
      const m = memoryOf(r, p.ts);
      const raised = state.s[id]?.al;
      const was: ReadonlySet<SensorAlarmKind> = raised?.length ? new Set(raised) : NO_ALARMS;
      const now = nextAlarms(sensor.thresholds, m, was);
      for (const kind of now) {
        if (!was.has(kind)) alarms.push({ sensorId: id, kind, ts: p.ts, lat: p.lat, lon: p.lon, sensor, ...crossing(kind, m, sensor.thresholds) });
      }
      // A reading without a value keeps the previous one of that kind (a door sensor sends no temperature).
      const before = state.s[id];
      const merged: SensorMemory = before ? { ...before, ...m } : m;
      // Assigned rather than deleted (a delete turns the object slow); JSON leaves an undefined out.
      merged.al = now.size ? [...now].sort() : undefined;
      state.s[id] = merged;
    }
  }
  if (state.t === -Infinity) return { state: previous, alarms };
  return { state, alarms };
}
