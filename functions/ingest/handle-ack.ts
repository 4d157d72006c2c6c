/**
 * IoT rule `commandAck` (trackers/{imei}/ack): a native tracker's answer `{ id, ok, error? }` to the
 * command with that id (docs/api.md "Tracker protocol"). The IMEI comes from the topic, which a
 * tracker's IoT policy lets it publish under its own IMEI only. An answer for an unknown,
 * cancelled or already answered command changes nothing, so a redelivery is harmless; a malformed
 * one goes to the dead letters with its reason and never throws.
 */
import { z } from 'zod';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { settleCommand } from '../units/command-service';
import { markSensorPaired } from '../sensors/sensor-repository';
import { recordDeadLetter } from './dead-letters';
import type { DeadLetterReason } from './types';
import { isImeiShape } from '../../shared/validators/imei';


export const ackSchema = z.object({
  // Our ids are 30 characters; the bound keeps a tracker from sending a key DynamoDB refuses.
  id: z.string().min(1).max(64),
  ok: z.boolean(),
  error: z.string().max(500).optional(),
});

export interface AckResult {
  outcome: 'acknowledged' | 'failed' | 'ignored' | 'deadLetter';
  reason?: DeadLetterReason;
}

function parseAck(payload: Buffer): { reason: DeadLetterReason; detail: string } | z.infer<typeof ackSchema> {
  let message: unknown;
  try {
    message = JSON.parse(payload.toString('utf8'));
  } catch (error) {
    return { reason: 'MalformedJson', detail: error instanceof Error ? error.message : 'not JSON' };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { reason: 'UnknownFormat', detail: 'expected an acknowledgement { id, ok, error? }' };
  }
  const parsed = ackSchema.safeParse(message, { reportInput: true });
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const missing = issue?.code === 'invalid_type' && 'input' in issue && issue.input === undefined;
  return {
    reason: missing ? 'MissingField' : issue?.code === 'invalid_type' ? 'WrongType' : 'InvalidValue',
    detail: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
  };
}

export const handler = async (event: IotRuleEvent): Promise<AckResult> => {
  const ports = getPorts();
  const receivedAt = Number.isFinite(event.receivedAt) && event.receivedAt > 0 ? event.receivedAt : ports.clock.now().getTime();
  const payload = Buffer.from(event.payload ?? '', 'base64');
  const ack = isImeiShape(event.imei) ? parseAck(payload) : { reason: 'UnknownUnit' as const, detail: 'the topic names no IMEI' };
  if ('reason' in ack) {
    logger.warn('command acknowledgement dead-lettered', { reason: ack.reason, topic: event.topic, imei: event.imei });
    await recordDeadLetter({ reason: ack.reason, detail: ack.detail, topic: event.topic, imei: event.imei, payload, receivedAt });
    return { outcome: 'deadLetter', reason: ack.reason };
  }

  const answer = ack.ok ? { ok: true as const } : { ok: false as const, ...(ack.error ? { deviceError: ack.error } : {}) };
  const command = await settleCommand(event.imei, ack.id, answer, new Date(receivedAt), ports.live);
  if (!command) {
    logger.info('command acknowledgement changed nothing', { imei: event.imei, commandId: ack.id });
    return { outcome: 'ignored' };
  }
  // An acknowledged sensor pairing makes the sensor paired (by its MAC; idempotent, so a crash in
  // between is mended by the sensors list, which also reads the command: functions/sensors).
  if (command.type === 'pairSensor' && command.status === 'acknowledged' && 'mac' in command.params) {
    await markSensorPaired(event.imei, command.params.mac);
  }
  return { outcome: command.status === 'acknowledged' ? 'acknowledged' : 'failed' };
};
