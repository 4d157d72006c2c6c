/**
 * Teltonika devices answer a command on their data topic with `{ "RSP": "..." }` and no command id.
 *
 * Which command an answer is for: a unit has at most one unacknowledged command (the unit's
 * `openCommand`, see functions/units/command-repository.ts), so that is the only candidate, and no
 * choice between an oldest and a newest one arises. A cancelled command may still reach the device
 * (QoS 1 in its persistent session) and be answered after the next one was sent, so the answer must
 * also fit what the open command asked for: a setdigout answer must report the command's output in
 * the command's state, a setparam answer must echo every value the operating mode (or the eco
 * thresholds) sets. A refusal
 * ("DOUT1 Is disabled from CFG", an error text) fails the open command. Anything else changes no
 * command.
 *
 * The newest answer text is also kept on the unit item (`lastCommandAnswer`), so support can read
 * what a device said even when it matched nothing. The text is not logged: answers echo parameters.
 */
import type { Command, EcoThresholdParams } from '../../shared/schemas/commands';
import { teltonikaSetEcoThresholds, teltonikaSetOperatingMode } from '../platform/adapters/device-encoding';
import { getPorts } from '../platform/container';
import { keepLastCommandAnswer } from '../domain/unit/commands';
import type { Ports } from '../platform/ports';
import { getOpenCommand, type Answer } from '../units/command-repository';
import { settleCommand } from '../units/command-service';


const MAX_ANSWER_CHARS = 1000;

export interface CommandAnswer {
  text: string;
  /** Epoch ms when the broker received it. */
  receivedAt: number;
}

/** Words of the FMB's refusals ("Param ID ... does not exist", "Invalid ...", "... error"). */
const DEVICE_ERROR = /\b(error|invalid|failed|does not exist|not exist|wrong|unknown command)\b/i;

function valuePairs(list: string): string[] {
  return list
    .split(';')
    .map((pair) => pair.split(':').map((part) => part.trim()).join(':'))
    .filter((pair) => pair !== '');
}

/**
 * What a Teltonika answer says about a command: acknowledged, refused, or null when it is not an
 * answer to that command.
 */
export function judgeTeltonikaAnswer(command: Pick<Command, 'type' | 'params'>, text: string): Answer | null {
  const refused: Answer = { ok: false, deviceError: text.slice(0, 500) };
  if (command.type === 'dout' && 'output' in command.params) {
    const { output, on } = command.params;
    const disabled = /DOUT(\d)?\s+is disabled/i.exec(text);
    if (disabled && (!disabled[1] || Number(disabled[1]) === output)) return refused;
    // Firmware answers `DOUT1:1`, the simulated FMB `DOUT1:ON`; `DOUT1:IGNORED` means another command.
    const state = new RegExp(`DOUT${output}:(\\w+)`, 'i').exec(text)?.[1]?.toUpperCase();
    if (state !== undefined) return state === (on ? '1' : '0') || state === (on ? 'ON' : 'OFF') ? { ok: true } : null;
  } else if ((command.type === 'operatingMode' && 'mode' in command.params) || (command.type === 'ecoThresholds' && 'sensitivity' in command.params)) {
    const echoed = /^New value\s+(.+)$/is.exec(text.trim());
    if (echoed?.[1]) {
      const got = new Set(valuePairs(echoed[1]));
      const sent = 'mode' in command.params ? teltonikaSetOperatingMode(command.params.mode) : teltonikaSetEcoThresholds(command.params as EcoThresholdParams);
      const wanted = valuePairs(sent.replace(/^setparam\s+/, ''));
      return wanted.every((pair) => got.has(pair)) ? { ok: true } : null;
    }
  }
  return DEVICE_ERROR.test(text) ? refused : null;
}

/**
 * Keeps the answer on the unit and settles the unit's open command when the answer is for it.
 * True when kept as the unit's last answer; false when the unit already holds a newer one.
 */
export async function recordCommandAnswer(imei: string, answer: CommandAnswer, live: Ports['live'] = getPorts().live): Promise<boolean> {
  const kept = await keepLastCommandAnswer(imei, { text: answer.text.slice(0, MAX_ANSWER_CHARS), receivedAt: answer.receivedAt });
  // A late answer may still be the one the open command waits for, so it is judged either way.
  const open = await getOpenCommand(imei);
  const verdict = open ? judgeTeltonikaAnswer(open, answer.text) : null;
  if (open && verdict) await settleCommand(imei, open.commandId, verdict, new Date(answer.receivedAt), live);
  return kept;
}
