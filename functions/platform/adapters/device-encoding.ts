/**
 * How a command reaches a tracker, per protocol: the topic and the payload. Pure, and shared by
 * the AWS adapter (IoT Data Plane) and the embedded one (local broker), so both send the same bytes.
 *
 * - native: `trackers/{imei}/commands` with `{ id, type, params }` (docs/api.md); the tracker answers
 *   on `trackers/{imei}/ack` with the same id.
 * - teltonika: `{imei}/commands` with `{ "CMD": "<text command>" }`, the FMB/FMC SMS/GPRS command
 *   syntax; the device answers `{ "RSP": "..." }` without an id, so only command types with a
 *   text form can be sent.
 */
import type { z } from 'zod';
import { doutParamsSchema, ecoThresholdParamsSchema, operatingModeParamsSchema, type DoutParams, type EcoThresholdParams, type OperatingMode } from '../../../shared/schemas/commands';
import { metresPerSecond2 } from '../../../shared/eco';
import type { DeviceCommand } from '../ports';
import { commandTopic } from '../../../shared/mqtt-topics';
import { REPORT_PERIOD_SECONDS } from '../../../shared/unit-status';

export type DeviceProtocol = 'native' | 'teltonika';

export interface EncodedCommand {
  topic: string;
  payload: string;
  /** Commands must not be lost while the tracker reconnects. */
  qos: 1;
}

export class DeviceEncodingError extends Error {
  override name = 'DeviceEncodingError';
}

/** Record periods in seconds (standing still, moving) per operating mode: the ones the map's offline rule expects. */
export const operatingModePeriods = REPORT_PERIOD_SECONDS;

/** The command types that have a Teltonika text form. */
export const teltonikaCommandTypes = ['dout', 'operatingMode', 'ecoThresholds'] as const;

function parseParams<S extends z.ZodType>(schema: S, command: DeviceCommand): z.output<S> {
  const result = schema.safeParse(command.params);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
    throw new DeviceEncodingError(`invalid params for command type ${command.type}: ${problems}`);
  }
  return result.data;
}

/**
 * FMB `setdigout`: one state character per output (`1` on, `0` off, `?` unchanged), then one
 * timeout per output up to the one switched (`?` for the ones left alone). DOUT1 on for 60 s is
 * `setdigout 1?? 60`, DOUT2 on for 60 s is `setdigout ?1? ? 60`, DOUT3 off is `setdigout ??0`.
 * The three-character form assumes three outputs, as the spec's units have (DOUT1-3).
 */
export function teltonikaSetDigout({ output, on, durationSeconds }: DoutParams): string {
  const states = ['?', '?', '?'];
  states[output - 1] = on ? '1' : '0';
  let text = `setdigout ${states.join('')}`;
  // A timeout only means something when an output is switched on (the device ignores it for off).
  if (on && durationSeconds !== undefined) {
    const timeouts = Array.from({ length: output }, (_, i) => (i === output - 1 ? String(durationSeconds) : '?'));
    text += ` ${timeouts.join(' ')}`;
  }
  return text;
}

/**
 * FMB data acquisition parameters written by an operating mode change (composite `setparam`,
 * `id:value` pairs joined by `;`). Assumption, from the FMB1YX/FMB001 parameter lists: per network
 * mode (Home 100xx, Roaming 101xx, Unknown 102xx) "on Stop" Min Period is xx=00 and Send Period
 * xx=05, "Moving" Min Period xx=50 and Send Period xx=55. All three network modes get the same
 * values so a unit abroad behaves like at home. Record and send periods are kept equal so each
 * record is sent when taken (the mode is about how often the portal hears from the unit).
 */
const TELTONIKA_PERIOD_PARAMS = [
  { stopMin: 10000, stopSend: 10005, movingMin: 10050, movingSend: 10055 }, // Home
  { stopMin: 10100, stopSend: 10105, movingMin: 10150, movingSend: 10155 }, // Roaming
  { stopMin: 10200, stopSend: 10205, movingMin: 10250, movingSend: 10255 }, // Unknown
] as const;

export function teltonikaSetOperatingMode(mode: OperatingMode): string {
  const { stop, moving } = operatingModePeriods[mode];
  const pairs = TELTONIKA_PERIOD_PARAMS.flatMap((p) => [
    `${p.stopMin}:${stop}`,
    `${p.stopSend}:${stop}`,
    `${p.movingMin}:${moving}`,
    `${p.movingSend}:${moving}`,
  ]);
  return `setparam ${pairs.join(';')}`;
}

/**
 * FMB green driving (parameter list of the FMB family): 11000 scenario on (1, low priority), 11004
 * max acceleration, 11005 max braking, 11006 max cornering (m/s², one decimal), 11008 event
 * duration on (IO 243 with each event).
 */
export function teltonikaSetEcoThresholds(p: EcoThresholdParams): string {
  return `setparam 11000:1;11004:${metresPerSecond2(p.accelerationG)};11005:${metresPerSecond2(p.brakingG)};11006:${metresPerSecond2(p.corneringG)};11008:1`;
}

function teltonikaText(command: DeviceCommand): string {
  switch (command.type) {
    case 'dout':
      return teltonikaSetDigout(parseParams(doutParamsSchema, command));
    case 'operatingMode':
      return teltonikaSetOperatingMode(parseParams(operatingModeParamsSchema, command).mode);
    case 'ecoThresholds':
      return teltonikaSetEcoThresholds(parseParams(ecoThresholdParamsSchema, command));
    default:
      throw new DeviceEncodingError(`command type ${command.type} has no Teltonika form (supported: ${teltonikaCommandTypes.join(', ')})`);
  }
}

/** Checks the params of the command types we know; other types go to native trackers unchanged. */
function nativeParams(command: DeviceCommand): Record<string, unknown> {
  if (command.type === 'dout') return parseParams(doutParamsSchema, command);
  if (command.type === 'operatingMode') return parseParams(operatingModeParamsSchema, command);
  if (command.type === 'ecoThresholds') return parseParams(ecoThresholdParamsSchema, command);
  return command.params;
}

export function encodeDeviceCommand(imei: string, command: DeviceCommand, protocol: DeviceProtocol): EncodedCommand {
  if (!command.id) throw new DeviceEncodingError('a command needs an id');
  switch (protocol) {
    case 'native':
      return {
        topic: commandTopic('native', imei),
        payload: JSON.stringify({ id: command.id, type: command.type, params: nativeParams(command) }),
        qos: 1,
      };
    case 'teltonika':
      return { topic: commandTopic('teltonika', imei), payload: JSON.stringify({ CMD: teltonikaText(command) }), qos: 1 };
    default:
      throw new DeviceEncodingError(`unknown tracker protocol: ${String(protocol satisfies never)}`);
  }
}
