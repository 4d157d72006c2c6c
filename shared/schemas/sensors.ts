/**
 * BLE sensors of a GPS unit (docs/api.md "Sensors"; spec sections 3, 4, 5, 8 and 9): temperature,
 * humidity and door sensors and tags, paired with the unit's tracker by a device command and read
 * from its telemetry. Validation messages are message keys (shared/i18n/features/sensors).
 *
 * Rules: a MAC has 12 hex digits whose 6th and 7th are `4` and `1` (separators `:`, `-`, `.` and
 * spaces are ignored, letters are read in either case and stored in upper case); a MAC belongs to
 * one unit of one account at a time; a GPS unit has at most 4 sensors; thresholds lie within what
 * the sensors measure (temperature -20 to +60 C, humidity 0 to 100 %), a minimum below its maximum.
 */
import { z } from 'zod';
import { IMEI_PATTERN } from '../validators/imei';
import { commandStatuses } from './commands';

export const sensorMessageKeys = {
  MacInvalid: 'MacInvalid',
  /** The MAC is paired with another unit (of any account). */
  MacInUse: 'MacInUse',
  /** The MAC is already one of this unit's sensors. */
  SensorAlreadyPaired: 'SensorAlreadyPaired',
  AllSensorSlotsTaken: 'AllSensorSlotsTaken',
  /** A sensor id that is not one of the unit's sensors (404). */
  SensorNotRegistered: 'SensorNotRegistered',
  /** The tracker refused the pairing. */
  CouldNotPair: 'CouldNotPair',
  SensorNameRequired: 'SensorNameRequired',
  SensorNameTooLong: 'SensorNameTooLong',
  InvalidSensorKind: 'InvalidSensorKind',
  TemperatureOutOfRange: 'TemperatureOutOfRange',
  HumidityOutOfRange: 'HumidityOutOfRange',
  ThresholdMinAboveMax: 'ThresholdMinAboveMax',
  /** The sensor is paired already: there is nothing to send again (409). */
  SensorPairedAlready: 'SensorPairedAlready',
} as const;
const keys = sensorMessageKeys;

/** Sensors per GPS unit (spec section 9). */
export const SENSORS_PER_UNIT = 4;
export const SENSOR_NAME_MAX = 30;
export const SENSOR_TEMP_MIN_C = -20;
export const SENSOR_TEMP_MAX_C = 60;
export const SENSOR_HUM_MIN = 0;
export const SENSOR_HUM_MAX = 100;

export const sensorKinds = ['temperature', 'humidity', 'door', 'tag'] as const;
export type SensorKind = (typeof sensorKinds)[number];

/** A MAC as stored: 12 upper-case hex digits, without separators. */
export const MAC_PATTERN = /^[0-9A-F]{12}$/;

/** The MAC as stored, or null when it is not a BLE sensor's MAC (12 hex digits, `4` and `1` as the 6th and 7th). */
export function normalizeMac(input: string): string | null {
  const mac = input.replace(/[\s:.-]/g, '').toUpperCase();
  if (!MAC_PATTERN.test(mac)) return null;
  return mac[5] === '4' && mac[6] === '1' ? mac : null;
}

/** `AC23F4100001` as `AC:23:F4:10:00:01`. */
export function formatMac(mac: string): string {
  return mac.match(/.{2}/g)?.join(':') ?? mac;
}

const temperature = z
  .number({ message: keys.TemperatureOutOfRange })
  .min(SENSOR_TEMP_MIN_C, keys.TemperatureOutOfRange)
  .max(SENSOR_TEMP_MAX_C, keys.TemperatureOutOfRange)
  .nullable()
  .optional();
const humidity = z
  .number({ message: keys.HumidityOutOfRange })
  .min(SENSOR_HUM_MIN, keys.HumidityOutOfRange)
  .max(SENSOR_HUM_MAX, keys.HumidityOutOfRange)
  .nullable()
  .optional();

/**
 * When a sensor raises a function alarm (`sensorAlarm`): below `tempMin` or above `tempMax`, below
 * `humMin` or above `humMax`, when the door opens (`doorOpen`), when its battery runs low
 * (`lowBattery`). Absent or null: no alarm of that kind.
 */
export const sensorThresholdsSchema = z
  .object({
    tempMin: temperature,
    tempMax: temperature,
    humMin: humidity,
    humMax: humidity,
    doorOpen: z.boolean().optional(),
    lowBattery: z.boolean().optional(),
  })
  .superRefine((t, ctx) => {
    if (t.tempMin != null && t.tempMax != null && t.tempMin >= t.tempMax) {
      ctx.addIssue({ code: 'custom', path: ['tempMax'], message: keys.ThresholdMinAboveMax });
    }
    if (t.humMin != null && t.humMax != null && t.humMin >= t.humMax) {
      ctx.addIssue({ code: 'custom', path: ['humMax'], message: keys.ThresholdMinAboveMax });
    }
  });
export type SensorThresholds = z.infer<typeof sensorThresholdsSchema>;

/** The thresholds as stored: only what is set. */
export function storedThresholds(t: SensorThresholds | undefined): StoredThresholds {
  const out: StoredThresholds = {};
  if (t?.tempMin != null) out.tempMin = t.tempMin;
  if (t?.tempMax != null) out.tempMax = t.tempMax;
  if (t?.humMin != null) out.humMin = t.humMin;
  if (t?.humMax != null) out.humMax = t.humMax;
  if (t?.doorOpen) out.doorOpen = true;
  if (t?.lowBattery) out.lowBattery = true;
  return out;
}
export interface StoredThresholds {
  tempMin?: number;
  tempMax?: number;
  humMin?: number;
  humMax?: number;
  doorOpen?: boolean;
  lowBattery?: boolean;
}

const sensorName = z.string({ message: keys.SensorNameRequired }).trim().min(1, keys.SensorNameRequired).max(SENSOR_NAME_MAX, keys.SensorNameTooLong);

/** POST /api/v1/user/units/{imei}/sensors. */
export const sensorCreateRequestSchema = z.object({
  mac: z
    .string({ message: keys.MacInvalid })
    .max(40, keys.MacInvalid)
    .transform((v, ctx) => {
      const mac = normalizeMac(v);
      if (mac === null) {
        ctx.addIssue({ code: 'custom', message: keys.MacInvalid });
        return z.NEVER;
      }
      return mac;
    }),
  name: sensorName,
  kind: z.enum(sensorKinds, { message: keys.InvalidSensorKind }),
  thresholds: sensorThresholdsSchema.optional(),
});
export type SensorCreateRequest = z.input<typeof sensorCreateRequestSchema>;

/** PUT /api/v1/user/units/{imei}/sensors/{id}: the name and the thresholds (the MAC and the kind stay). */
export const sensorUpdateRequestSchema = z.object({
  name: sensorName,
  thresholds: sensorThresholdsSchema,
});
export type SensorUpdateRequest = z.input<typeof sensorUpdateRequestSchema>;

export const sensorParamsSchema = z.object({
  imei: z.string().regex(IMEI_PATTERN, 'InvalidImei'),
  id: z.string().regex(/^[0-9a-z-]{1,40}$/, keys.SensorNotRegistered),
});

/** What the sensor last reported through its tracker (time ISO 8601 UTC; absent values null). */
export const sensorReadingSchema = z.object({
  time: z.string(),
  /** Degrees Celsius. */
  temp: z.number().nullable(),
  /** Relative humidity, %. */
  hum: z.number().nullable(),
  /** True when the door is open. */
  door: z.boolean().nullable(),
  /** The sensor's battery, volts (native trackers). */
  bat: z.number().nullable(),
  /** The sensor's battery, % (Teltonika trackers report a level, not a voltage). */
  batPct: z.number().nullable(),
});
export type SensorReading = z.infer<typeof sensorReadingSchema>;

export const sensorAlarmKinds = ['tempHigh', 'tempLow', 'humHigh', 'humLow', 'doorOpen', 'lowBattery'] as const;
export type SensorAlarmKind = (typeof sensorAlarmKinds)[number];

export const sensorSchema = z.object({
  id: z.string(),
  mac: z.string(),
  name: z.string(),
  kind: z.enum(sensorKinds),
  /** `paired` once the tracker acknowledged the pairing command. */
  status: z.enum(['pending', 'paired']),
  thresholds: z.object({
    tempMin: z.number().nullable(),
    tempMax: z.number().nullable(),
    humMin: z.number().nullable(),
    humMax: z.number().nullable(),
    doorOpen: z.boolean(),
    lowBattery: z.boolean(),
  }),
  lastReading: sensorReadingSchema.nullable(),
  /** The alarms the sensor is in now (raised and not yet cleared). */
  alarms: z.array(z.enum(sensorAlarmKinds)),
  /** The pairing command while the sensor is pending: its id and state (pending, unanswered after 120 s, failed, cancelled by a later command). */
  command: z.object({ id: z.string(), status: z.enum(commandStatuses) }).nullable(),
  /** CouldNotPair when the tracker refused the pairing, else null. */
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type Sensor = z.infer<typeof sensorSchema>;

export const sensorListSchema = z.object({
  sensors: z.array(sensorSchema),
  /** At most this many per unit. */
  max: z.number().int(),
  /** The unit's tracker family: Teltonika trackers take sensors by configuration and report them by slot (in the order they were added). */
  protocol: z.enum(['native', 'teltonika']),
});
export type SensorList = z.infer<typeof sensorListSchema>;
