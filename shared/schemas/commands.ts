/**
 * Device commands (spec section 4): DOUT on/off and operating-mode changes, saved pending, then
 * acknowledged when the tracker answers. A new command cancels the unacknowledged one; after 120 seconds
 * without an answer the command is `unanswered` (the poor-coverage message) and may still be acknowledged
 * later, since settings reach a unit at its next contact (up to 24 h). A DOUT command may be sent again
 * only after an answer or 120 seconds.
 */
import { z } from 'zod';
import { commandMessageKeys as keys } from './commands-messages';

/** Seconds a command waits for the tracker's answer before the poor-coverage message (spec section 9). */
export const COMMAND_ANSWER_WAIT_SECONDS = 120;
export const DOUT_DURATION_MAX_SECONDS = 65_000;
export const DOUT_LABEL_MAX_CHARS = 20;
export const DOUT_OUTPUTS = [1, 2, 3] as const;

/** Operating modes (spec sections 4 and 9). */
export const operatingModes = [
  'fixed24h',
  'fixed12h',
  'fixed8h',
  'fixed6h',
  'fixed1h',
  'realtime5min',
  'realtime1min',
  'movement',
  'theft',
] as const;
export type OperatingMode = (typeof operatingModes)[number];

export const commandTypes = ['dout', 'operatingMode', 'pairRfid', 'pairSensor', 'unpairSensor', 'ecoThresholds'] as const;
export type CommandType = (typeof commandTypes)[number];

/** What the tracker receives for a DOUT command (also the params stored with it). */
export const doutParamsSchema = z.object({
  output: z.number({ message: keys.InvalidOutput }).int(keys.InvalidOutput).min(1, keys.InvalidOutput).max(3, keys.InvalidOutput),
  on: z.boolean(),
  /** Seconds the new state is held; without it the state stays until the next command. */
  durationSeconds: z
    .number({ message: keys.DoutDurationInvalid })
    .int(keys.DoutDurationInvalid)
    .min(1, keys.DoutDurationInvalid)
    .max(DOUT_DURATION_MAX_SECONDS, keys.DoutDurationInvalid)
    .optional(),
});
export type DoutParams = z.infer<typeof doutParamsSchema>;

export const operatingModeParamsSchema = z.object({ mode: z.enum(operatingModes, { message: keys.InvalidOperatingMode }) });
export type OperatingModeParams = z.infer<typeof operatingModeParamsSchema>;

/**
 * RFID pairing (functions/rfid): the unit's RFID reader accepts (paired) or forgets (not paired) a
 * card. Sent by the RFID cards page, never through POST .../commands.
 */
export const rfidPairParamsSchema = z.object({
  readerId: z.string().min(1).max(32),
  cardId: z.string().min(1).max(32),
  paired: z.boolean(),
});
export type RfidPairParams = z.infer<typeof rfidPairParamsSchema>;

/**
 * BLE sensor pairing (functions/sensors): `pairSensor` makes the tracker listen to the sensor with
 * this MAC (12 hex digits, upper case), `unpairSensor` makes it forget it. Sent by the sensors
 * routes, never through POST .../commands.
 */
export const sensorPairParamsSchema = z.object({ mac: z.string().regex(/^[0-9A-F]{12}$/) });
export type SensorPairParams = z.infer<typeof sensorPairParamsSchema>;

/**
 * Eco driving thresholds (shared/eco.ts): sent when a unit's eco sensitivity changes (the unit
 * editor), never through POST .../commands. Harsh acceleration, braking and cornering in g; a
 * native tracker reports a `harsh` episode from these on, a Teltonika device gets them in m/s².
 */
export const ecoThresholdParamsSchema = z.object({
  sensitivity: z.enum(['sensitive', 'normal', 'insensitive']),
  accelerationG: z.number().positive(),
  brakingG: z.number().positive(),
  corneringG: z.number().positive(),
});
export type EcoThresholdParams = z.infer<typeof ecoThresholdParamsSchema>;

/**
 * POST /api/v1/user/units/{imei}/commands. A DOUT command may carry the output's label (at most 20
 * characters), which is saved on the unit as the name of that output; an empty label clears it.
 */
export const commandRequestSchema = z.discriminatedUnion(
  'type',
  [
    doutParamsSchema.extend({
      type: z.literal('dout'),
      label: z.string().trim().max(DOUT_LABEL_MAX_CHARS, keys.DoutLabelTooLong).optional(),
    }),
    operatingModeParamsSchema.extend({ type: z.literal('operatingMode') }),
  ],
  { message: keys.InvalidCommandType },
);
export type CommandRequest = z.infer<typeof commandRequestSchema>;

/**
 * A command the portal sends on its own behalf (sensor and RFID pairing), never through POST
 * .../commands: its type and the params the tracker gets. The command service takes these beside
 * the users' `CommandRequest`.
 */
export type ServiceCommandRequest =
  | { type: 'pairRfid'; params: RfidPairParams }
  | { type: 'pairSensor' | 'unpairSensor'; params: SensorPairParams }
  | { type: 'ecoThresholds'; params: EcoThresholdParams };

export const commandStatuses = ['pending', 'unanswered', 'acknowledged', 'failed', 'cancelled'] as const;
export type CommandStatus = (typeof commandStatuses)[number];

/** A command as the API and the live channel show it. Times are ISO 8601 UTC. */
export const commandSchema = z.object({
  id: z.string(),
  imei: z.string(),
  type: z.enum(commandTypes),
  params: z.union([doutParamsSchema, operatingModeParamsSchema, rfidPairParamsSchema, sensorPairParamsSchema, ecoThresholdParamsSchema]),
  status: z.enum(commandStatuses),
  createdAt: z.string(),
  /** When the tracker answered (acknowledged or failed), else null. */
  answeredAt: z.string().nullable(),
  /** When the status last changed. */
  updatedAt: z.string(),
  /** A message key when failed (ModeChangeFailed, CommandFailed); else null. */
  error: z.string().nullable(),
});
export type Command = z.infer<typeof commandSchema>;

/** GET /api/v1/user/units/{imei}/commands: newest first, at most this many. */
export const COMMANDS_LIST_LIMIT = 20;
export const commandListSchema = z.array(commandSchema);
