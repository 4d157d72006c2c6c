import { describe, expect, it } from 'vitest';
import { commandsEn } from '../../../../shared/i18n/features/commands/en';
import { commandsNo } from '../../../../shared/i18n/features/commands/no';
import { commandsSv } from '../../../../shared/i18n/features/commands/sv';
import { translateKey } from '../../../../shared/i18n/index';
import { COMMANDS_LIST_LIMIT, commandStatuses, operatingModes, type Command } from '../../../../shared/schemas/commands';
import {
  acknowledgedMode,
  changedCommands,
  commandText,
  doutLockSeconds,
  effectiveStatus,
  elapsedSeconds,
  latestFor,
  mergeCommand,
  reconcileCommands,
  operatingModeDescription,
  operatingModeName,
  statusText,
  statusesById,
} from './command-state';

const T0 = Date.UTC(2025, 4, 2, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

function command(over: Partial<Command> & Pick<Command, 'id'>): Command {
  return {
    imei: '356938031000004',
    type: 'dout',
    params: { output: 1, on: true },
    status: 'pending',
    createdAt: iso(T0),
    answeredAt: null,
    updatedAt: iso(T0),
    error: null,
    ...over,
  };
}

describe('the 120-second rule', () => {
  const pending = command({ id: 'a' });

  it('keeps a command pending for 119.999 s and calls it unanswered from 120 s on', () => {
    expect(effectiveStatus(pending, T0)).toBe('pending');
    expect(effectiveStatus(pending, T0 + 119_999)).toBe('pending');
    expect(effectiveStatus(pending, T0 + 120_000)).toBe('unanswered');
    expect(statusText(pending, T0 + 120_000)).toEqual({ key: 'NoDeviceResponse' });
  });

  it('leaves answered, cancelled and server-side unanswered commands as they are, however old', () => {
    for (const status of ['acknowledged', 'failed', 'cancelled', 'unanswered'] as const) {
      expect(effectiveStatus(command({ id: 'b', status }), T0 + 999_000)).toBe(status);
    }
  });

  it('counts elapsed whole seconds, never below 0 when the browser clock runs behind', () => {
    expect(elapsedSeconds(pending, T0 + 12_999)).toBe(12);
    expect(elapsedSeconds(pending, T0 - 3_000)).toBe(0);
    expect(statusText(pending, T0 + 12_999)).toEqual({ key: 'CommandPending', vars: { seconds: 12 } });
  });

  it('locks DOUT while a DOUT command awaits its answer, counting down to the 120 s mark', () => {
    expect(doutLockSeconds([pending], T0)).toBe(120);
    expect(doutLockSeconds([pending], T0 + 100_500)).toBe(20);
    expect(doutLockSeconds([pending], T0 + 119_001)).toBe(1);
    expect(doutLockSeconds([pending], T0 + 120_000)).toBe(0);
  });

  it('does not lock DOUT for an answered DOUT command or a pending operating-mode command', () => {
    expect(doutLockSeconds([command({ id: 'c', status: 'acknowledged' })], T0 + 1000)).toBe(0);
    expect(doutLockSeconds([command({ id: 'd', status: 'failed' })], T0 + 1000)).toBe(0);
    expect(doutLockSeconds([command({ id: 'e', type: 'operatingMode', params: { mode: 'theft' } })], T0 + 1000)).toBe(0);
    expect(doutLockSeconds([], T0)).toBe(0);
  });

  it('locks until the youngest pending DOUT command reaches 120 s', () => {
    const older = command({ id: 'f', createdAt: iso(T0 - 60_000), params: { output: 2, on: false } });
    expect(doutLockSeconds([pending, older], T0 + 30_000)).toBe(90);
  });
});

describe('state texts', () => {
  it('names each state with its own key', () => {
    const at = (status: Command['status'], error: string | null = null) => statusText(command({ id: 'x', status, error }), T0 + 5000).key;
    expect(at('pending')).toBe('CommandPending');
    expect(at('acknowledged')).toBe('CommandAcknowledged');
    expect(at('cancelled')).toBe('CommandCancelled');
    expect(at('unanswered')).toBe('NoDeviceResponse');
    expect(at('failed', 'ModeChangeFailed')).toBe('ModeChangeFailed');
    expect(at('failed', 'CommandFailed')).toBe('CommandFailed');
    // An error key the browser does not know still gets a sentence, never the raw key.
    expect(at('failed', 'SomethingNew')).toBe('CommandFailed');
    expect(at('failed', null)).toBe('CommandFailed');
  });

  it('describes what each command asked for', () => {
    expect(commandText(command({ id: 'x', params: { output: 2, on: true, durationSeconds: 60 } }))).toEqual({
      key: 'CommandDoutOnFor',
      vars: { output: 2, seconds: 60 },
    });
    expect(commandText(command({ id: 'x', params: { output: 3, on: false } }))).toEqual({ key: 'CommandDoutOff', vars: { output: 3 } });
    expect(commandText(command({ id: 'x', type: 'operatingMode', params: { mode: 'movement' } }))).toEqual({
      key: 'CommandModeSummary',
      vars: { mode: { key: 'OperatingModeMovement' } },
    });
    expect(translateKey('en', 'CommandDoutOnFor', { output: 2, seconds: 60 })).toBe('DOUT2 on for 60 s');
  });

  it('has a name and a description for each of the nine modes, different in every language', () => {
    expect(operatingModes).toHaveLength(9);
    const keys = operatingModes.flatMap((mode) => [operatingModeName[mode], operatingModeDescription[mode]]);
    expect(new Set(keys).size).toBe(18);
    for (const key of keys) {
      expect(commandsEn[key]).toBeTruthy();
      expect(commandsSv[key]).not.toBe(commandsEn[key]);
      expect(commandsNo[key]).not.toBe(commandsEn[key]);
    }
    expect(commandsEn[operatingModeDescription.fixed1h]).toContain('3 months');
    expect(commandsEn[operatingModeDescription.fixed24h]).toContain('5 years');
  });

  it('has a colour-independent text for every status', () => {
    const texts = commandStatuses.map((status) => statusText(command({ id: 'x', status }), T0).key);
    expect(new Set(texts).size).toBe(commandStatuses.length);
  });
});

describe('the cached list', () => {
  const first = command({ id: '1', createdAt: iso(T0), updatedAt: iso(T0) });
  const second = command({ id: '2', createdAt: iso(T0 + 1000), updatedAt: iso(T0 + 1000) });

  it('adds a new command at the top and replaces a changed one in place', () => {
    const list = mergeCommand([first], second);
    expect(list.map((c) => c.id)).toEqual(['2', '1']);
    const acked = { ...first, status: 'acknowledged' as const, answeredAt: iso(T0 + 2000), updatedAt: iso(T0 + 2000) };
    expect(mergeCommand(list, acked)).toEqual([second, acked]);
  });

  it('ignores a message older than the state it holds (the live channel may reorder)', () => {
    const acked = { ...first, status: 'acknowledged' as const, updatedAt: iso(T0 + 2000) };
    expect(mergeCommand([acked], first)).toEqual([acked]);
  });

  it('keeps what live messages brought while a list was being fetched, and takes the rest from the list', () => {
    const pendingThen = { ...first, updatedAt: iso(T0) };
    const ackedLive = { ...first, status: 'acknowledged' as const, updatedAt: iso(T0 + 3000) };
    const cancelledByServer = { ...second, status: 'cancelled' as const, updatedAt: iso(T0 + 4000) };
    const staleCached = { ...second, updatedAt: iso(T0 + 1000) };
    expect(reconcileCommands([cancelledByServer, pendingThen], [staleCached, ackedLive])).toEqual([cancelledByServer, ackedLive]);
    expect(reconcileCommands([second, first], [])).toEqual([second, first]);
  });

  it('keeps at most as many commands as the server lists', () => {
    const many = Array.from({ length: COMMANDS_LIST_LIMIT }, (_, i) => command({ id: `m${i}`, createdAt: iso(T0 + i) }));
    const list = mergeCommand(many, command({ id: 'new', createdAt: iso(T0 + 60_000) }));
    expect(list).toHaveLength(COMMANDS_LIST_LIMIT);
    expect(list[0]?.id).toBe('new');
    expect(list.some((c) => c.id === 'm0')).toBe(false);
  });

  it('finds the newest command of an output and of the operating mode', () => {
    const mode = command({ id: 'mode', type: 'operatingMode', params: { mode: 'theft' }, createdAt: iso(T0 + 5000) });
    const out2 = command({ id: 'o2', params: { output: 2, on: true }, createdAt: iso(T0 + 3000) });
    const list = [mode, out2, second, first];
    expect(latestFor(list, 1)?.id).toBe('2');
    expect(latestFor(list, 2)?.id).toBe('o2');
    expect(latestFor(list, 3)).toBeUndefined();
    expect(latestFor(list, 'operatingMode')?.id).toBe('mode');
  });

  it('takes the current mode from the newest acknowledged mode command, else from the unit', () => {
    const mode = (id: string, m: 'theft' | 'movement', status: Command['status']) =>
      command({ id, type: 'operatingMode', params: { mode: m }, status });
    expect(acknowledgedMode([], 'fixed24h')).toBe('fixed24h');
    expect(acknowledgedMode([mode('p', 'theft', 'pending'), first], null)).toBeNull();
    expect(acknowledgedMode([mode('p', 'theft', 'pending'), mode('a', 'movement', 'acknowledged')], 'fixed24h')).toBe('movement');
  });

  it('tells which commands changed state, including by the clock alone', () => {
    const before = statusesById([first], T0 + 1000);
    expect(changedCommands(before, [first], T0 + 2000)).toEqual([]);
    expect(changedCommands(before, [first], T0 + 120_000)).toEqual([first]);
    expect(changedCommands(before, [second, first], T0 + 2000)).toEqual([second]);
  });
});
