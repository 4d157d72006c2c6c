/**
 * The sensors stage's state as it rides on the units item (`stages.sensors`, see stage.ts): each
 * sensor's last reading and the alarms it is in. Apart from the stage so that the sensors routes
 * read it without the event engine's modules.
 */
import { z } from 'zod';
import { sensorAlarmKinds } from '../../shared/schemas/sensors';
import type { SensorStageState } from './readings';

export const SENSOR_STAGE = 'sensors';

const memorySchema = z.object({
  ts: z.number(),
  temp: z.number().optional(),
  hum: z.number().optional(),
  door: z.boolean().optional(),
  bat: z.number().optional(),
  batPct: z.number().optional(),
  al: z.array(z.enum(sensorAlarmKinds)).optional(),
});
export const sensorStageStateSchema = z.object({ t: z.number(), s: z.record(z.string(), memorySchema) });

/** The stage's state as stored on the unit item (`stages.sensors`), or undefined when absent or malformed. */
export function parseSensorStageState(stored: unknown): SensorStageState | undefined {
  const parsed = sensorStageStateSchema.safeParse(stored);
  return parsed.success ? (parsed.data as SensorStageState) : undefined;
}
