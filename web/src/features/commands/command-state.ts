/**
 * Device command states as the browser shows them (spec section 4), as pure functions of the commands
 * and the current time. The server marks a command `unanswered` only when its time-out job runs; the
 * browser applies the same 120-second rule itself, so the poor-coverage message and the DOUT lock
 * follow the clock, not the job.
 */
import type { commandsEn } from '../../../../shared/i18n/features/commands/en';
import {
  COMMAND_ANSWER_WAIT_SECONDS,
  COMMANDS_LIST_LIMIT,
  type Command,
  type CommandStatus,
  type DoutParams,
  type OperatingMode,
} from '../../../../shared/schemas/commands';

export type CommandsKey = keyof typeof commandsEn;

const WAIT_MS = COMMAND_ANSWER_WAIT_SECONDS * 1000;

function ageMs(command: Pick<Command, 'createdAt'>, now: number): number {
  return now - Date.parse(command.createdAt);
}

/** Whole seconds since the command was sent (never negative: the browser's clock may run behind). */
export function elapsedSeconds(command: Pick<Command, 'createdAt'>, now: number): number {
  return Math.max(0, Math.floor(ageMs(command, now) / 1000));
}

/** The status to show: a pending command older than 120 seconds is unanswered, whatever the server said last. */
export function effectiveStatus(command: Pick<Command, 'status' | 'createdAt'>, now: number): CommandStatus {
  if (command.status === 'pending' && ageMs(command, now) >= WAIT_MS) return 'unanswered';
  return command.status;
}

/** A command still waiting for its answer within the 120 seconds. */
export function isAwaitingAnswer(command: Pick<Command, 'status' | 'createdAt'>, now: number): boolean {
  return effectiveStatus(command, now) === 'pending';
}

/**
 * Whole seconds until DOUT may be sent again: while any DOUT command of the unit awaits its answer and
 * is younger than 120 seconds (the server answers 409 DoutAwaitingAnswer then); 0 when it may.
 */
export function doutLockSeconds(commands: readonly Command[], now: number): number {
  let left = 0;
  for (const command of commands) {
    if (command.type !== 'dout' || !isAwaitingAnswer(command, now)) continue;
    left = Math.max(left, Math.ceil((WAIT_MS - ageMs(command, now)) / 1000));
  }
  return left;
}

/** A text to show: its key and variables, where a variable may itself be a key to translate first. */
export interface Text {
  key: CommandsKey;
  vars?: Record<string, string | number | { key: CommandsKey }>;
}

/** The sentence for a command's state: pending with its elapsed seconds, the error key when failed. */
export function statusText(command: Command, now: number): Text {
  switch (effectiveStatus(command, now)) {
    case 'pending':
      return { key: 'CommandPending', vars: { seconds: elapsedSeconds(command, now) } };
    case 'acknowledged':
      return { key: 'CommandAcknowledged' };
    case 'failed':
      return { key: command.error === 'ModeChangeFailed' ? 'ModeChangeFailed' : 'CommandFailed' };
    case 'cancelled':
      return { key: 'CommandCancelled' };
    case 'unanswered':
      return { key: 'NoDeviceResponse' };
  }
}

/** Mantine colours of the states. */
export const statusColor: Readonly<Record<CommandStatus, string>> = {
  pending: 'blue',
  acknowledged: 'green',
  failed: 'red',
  cancelled: 'gray',
  unanswered: 'orange',
};

export const operatingModeName: Readonly<Record<OperatingMode, CommandsKey>> = {
  fixed24h: 'OperatingModeFixed24h',
  fixed12h: 'OperatingModeFixed12h',
  fixed8h: 'OperatingModeFixed8h',
  fixed6h: 'OperatingModeFixed6h',
  fixed1h: 'OperatingModeFixed1h',
  realtime5min: 'OperatingModeRealtime5min',
  realtime1min: 'OperatingModeRealtime1min',
  movement: 'OperatingModeMovement',
  theft: 'OperatingModeTheft',
};

/** Report interval and battery life of each mode (spec section 9; the 1 h mode's battery life is a product decision). */
export const operatingModeDescription: Readonly<Record<OperatingMode, CommandsKey>> = {
  fixed24h: 'OperatingModeFixed24hDescription',
  fixed12h: 'OperatingModeFixed12hDescription',
  fixed8h: 'OperatingModeFixed8hDescription',
  fixed6h: 'OperatingModeFixed6hDescription',
  fixed1h: 'OperatingModeFixed1hDescription',
  realtime5min: 'OperatingModeRealtime5minDescription',
  realtime1min: 'OperatingModeRealtime1minDescription',
  movement: 'OperatingModeMovementDescription',
  theft: 'OperatingModeTheftDescription',
};

/** What a command asked for: "DOUT 1 on for 60 s", "Operating mode: Theft mode". */
export function commandText(command: Pick<Command, 'type' | 'params'>): Text {
  const params = command.params;
  if ('mode' in params) return { key: 'CommandModeSummary', vars: { mode: { key: operatingModeName[params.mode] } } };
  if ('mac' in params) return { key: command.type === 'unpairSensor' ? 'CommandUnpairSensor' : 'CommandPairSensor', vars: { mac: params.mac } };
  if ('cardId' in params) return { key: params.paired ? 'CommandRfidPair' : 'CommandRfidUnpair', vars: { card: params.cardId } };
  if ('sensitivity' in params) return { key: `CommandEcoThresholds_${params.sensitivity}` };
  const dout: DoutParams = params;
  const base = { output: dout.output };
  if (dout.durationSeconds !== undefined) {
    return { key: dout.on ? 'CommandDoutOnFor' : 'CommandDoutOffFor', vars: { ...base, seconds: dout.durationSeconds } };
  }
  return { key: dout.on ? 'CommandDoutOn' : 'CommandDoutOff', vars: base };
}

/**
 * The list with one command added or changed, newest first and as long as the server's list. A message
 * older than the one already held (the live channel does not promise order) changes nothing.
 */
export function mergeCommand(list: readonly Command[], command: Command): Command[] {
  const held = list.find((c) => c.id === command.id);
  if (held && Date.parse(held.updatedAt) > Date.parse(command.updatedAt)) return [...list];
  return [command, ...list.filter((c) => c.id !== command.id)]
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    .slice(0, COMMANDS_LIST_LIMIT);
}

/** A fetched list with what the cache holds newer (live messages that overtook the answer). */
export function reconcileCommands(fetched: readonly Command[], cached: readonly Command[]): Command[] {
  return cached.reduce<Command[]>((list, command) => mergeCommand(list, command), [...fetched]);
}

/** The newest command for one DOUT output, or the newest operating-mode command. */
export function latestFor(commands: readonly Command[], target: number | 'operatingMode'): Command | undefined {
  return commands.find((c) =>
    target === 'operatingMode' ? c.type === 'operatingMode' : c.type === 'dout' && 'output' in c.params && c.params.output === target,
  );
}

/**
 * Effective statuses by command id, to tell which changed between two renders: each change is
 * announced once in the live region (a command first seen counts as a change only after the first load).
 */
export function statusesById(commands: readonly Command[], now: number): Map<string, CommandStatus> {
  return new Map(commands.map((c) => [c.id, effectiveStatus(c, now)]));
}

export function changedCommands(before: ReadonlyMap<string, CommandStatus>, commands: readonly Command[], now: number): Command[] {
  return commands.filter((c) => before.get(c.id) !== effectiveStatus(c, now));
}

/**
 * The mode the tracker last acknowledged: from the newest acknowledged mode command when the list
 * holds one (it is newer than the unit record the page fetched), else the unit's own.
 */
export function acknowledgedMode(commands: readonly Command[], unitMode: OperatingMode | null): OperatingMode | null {
  const acked = commands.find((c) => c.type === 'operatingMode' && c.status === 'acknowledged');
  return acked && 'mode' in acked.params ? acked.params.mode : unitMode;
}
