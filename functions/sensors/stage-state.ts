/**
 * The sensors stage's state as it rides on the units item (`stages.sensors`, see stage.ts): each
 * sensor's last reading and the alarms it is in. Apart from the stage so that the sensors routes
 * read it without the event engine's modules.
 *
 * Checked by hand rather than with zod: ingest reads it for every message of a unit with sensors,
 * and a schema parse of the whole map cost more than the stage itself (bench:ingest-cpu).
 */
import { sensorAlarmKinds, type SensorAlarmKind } from '../../shared/schemas/sensors';
import type { SensorMemory, SensorStageState } from './readings';

export const SENSOR_STAGE = 'sensors';

const ALARM_KINDS: ReadonlySet<string> = new Set(sensorAlarmKinds);
const NUMBER_FIELDS = ['temp', 'hum', 'bat', 'batPct'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOptionalNumber = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v));

function isMemory(v: unknown): v is SensorMemory {
  if (!isObject(v) || typeof v['ts'] !== 'number') return false;
  for (const field of NUMBER_FIELDS) if (!isOptionalNumber(v[field])) return false;
  if (v['door'] !== undefined && typeof v['door'] !== 'boolean') return false;
  const al = v['al'];
  return al === undefined || (Array.isArray(al) && al.every((k): k is SensorAlarmKind => typeof k === 'string' && ALARM_KINDS.has(k)));
}

/** The stage's state as stored on the unit item (`stages.sensors`), or undefined when absent or malformed. */
export function parseSensorStageState(stored: unknown): SensorStageState | undefined {
  if (!isObject(stored) || typeof stored['t'] !== 'number' || !isObject(stored['s'])) return undefined;
  for (const memory of Object.values(stored['s'])) if (!isMemory(memory)) return undefined;
  return stored as unknown as SensorStageState;
}
