/**
 * The device command state machine (spec section 4) over the repository: send, answer, time out,
 * and tell the account's browsers about every change on the live channel.
 *
 * pending ──answer ok──▶ acknowledged        pending ──120 s──▶ unanswered ──answer──▶ acknowledged / failed
 *    │    ──answer error──▶ failed             pending / unanswered ──next command──▶ cancelled
 */
import { COMMAND_ANSWER_WAIT_SECONDS, type Command, type CommandRequest, type ServiceCommandRequest } from '../../shared/schemas/commands';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import type { LiveAudience } from '../../shared/mqtt-topics';
import { getUnitItem } from '../domain/unit/reads';
import { liveAudienceOf, type UnitItem } from '../domain/unit/schema';
import { answerCommand, createCommand, markUnanswered, toCommand, type Answer } from './command-repository';
import { emitWebhookEvent } from '../webhooks/emit';
import { commandAcknowledgedPayload } from '../webhooks/payloads';

/** Who hears about a unit's command: read afresh, so a withdrawn grant stops at once. */
async function audienceOf(imei: string, accountId: string): Promise<LiveAudience> {
  const unit = await getUnitItem(imei);
  return unit && unit.accountId === accountId ? liveAudienceOf(unit) : { accountId, imei, viewers: [] };
}

/** Live is best effort (QoS 0 by design): the browser reloads the list when it reconnects. */
export async function publishCommand(live: Ports['live'], audience: LiveAudience | Promise<LiveAudience>, command: Command): Promise<void> {
  try {
    await live.publish(await audience, { type: 'command', imei: command.imei, command });
  } catch (error) {
    logger.warn('live publish failed', { imei: command.imei, commandId: command.id, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Saves the command (cancelling the unacknowledged one), then sends it to the tracker in its
 * protocol. Saved first, so that an answer arriving at once finds it.
 *
 * A failed send does not fail the request: the command stays pending. A publish that reached IoT
 * Core (or the local broker) at QoS 1 is queued in the tracker's persistent session and delivered
 * when it next connects; one that never reached it is not retried, so after 120 s the time-out job
 * marks the command unanswered (the poor-coverage message) and the user may send it again.
 */
export async function sendCommand(
  unit: UnitItem,
  request: CommandRequest | ServiceCommandRequest,
  ports: Pick<Ports, 'devices' | 'live' | 'clock'>,
): Promise<Command> {
  const { command, cancelled } = await createCommand(unit, request, ports.clock.now());
  try {
    await ports.devices.send(unit.imei, { id: command.id, type: command.type, params: command.params }, unit.protocol);
  } catch (error) {
    logger.warn('command not sent to the tracker; it stays pending', {
      imei: unit.imei,
      commandId: command.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  if (cancelled) await publishCommand(ports.live, liveAudienceOf(unit), cancelled);
  await publishCommand(ports.live, liveAudienceOf(unit), command);
  return command;
}

/**
 * Records a tracker's answer and tells the browsers, and an acknowledgement the account's webhooks
 * (commandAcknowledged); null when it changed nothing.
 */
export async function settleCommand(imei: string, commandId: string, answer: Answer, at: Date, live: Ports['live']): Promise<Command | null> {
  const settled = await answerCommand(imei, commandId, answer, at);
  if (!settled) return null;
  await publishCommand(live, audienceOf(imei, settled.accountId), settled.command);
  if (settled.command.status === 'acknowledged') await emitWebhookEvent(commandAcknowledgedPayload(settled.accountId, settled.command));
  return settled.command;
}

/** The time-out job's work: pending commands older than 120 s at `now` become unanswered. */
export async function expireCommands(now: Date, live: Ports['live']): Promise<Command[]> {
  const changed = await markUnanswered(new Date(now.getTime() - COMMAND_ANSWER_WAIT_SECONDS * 1000), now);
  const commands = changed.map((item) => ({ accountId: item.accountId, command: toCommand(item) }));
  await Promise.all(commands.map(({ accountId, command }) => publishCommand(live, audienceOf(command.imei, accountId), command)));
  return commands.map((c) => c.command);
}
