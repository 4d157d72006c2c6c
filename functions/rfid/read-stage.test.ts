import { describe, expect, it } from 'vitest';
import type { Position } from '../ingest/types';
import type { StageInput } from '../ingest/transitions';
import type { UnitItem } from '../domain/unit/schema';
import { READ_AT_START_MS, REREAD_GAP_MS, rfidStage, type RfidStageState } from './read-stage';

const unit = { imei: '356938031000001', accountId: 'a', name: 'Van', vehicleType: 'van', protocol: 'native' } as UnitItem;
const T = 1_800_000_000_000;

function pos(ts: number, extra: Partial<Position> = {}): Position {
  return {
    ts, lat: 59.3, lon: 18.0, fix: true, speed: undefined, heading: undefined, alt: undefined, sats: undefined, hdop: undefined,
    ignition: undefined, movement: undefined, odometer: undefined, engineSeconds: undefined, extVolts: undefined, batVolts: undefined,
    din: undefined, dout: undefined, ble: undefined, rfid: undefined, eco: undefined, io: undefined, ...extra,
  };
}

function run(previous: RfidStageState | undefined, positions: Position[]) {
  const input: StageInput<RfidStageState> = { unit, previous, before: undefined, after: {} as never, positions, late: [], receivedAt: T };
  return rfidStage.run(input);
}

describe('the RFID ingest stage', () => {
  it('does nothing, and keeps its state object, for records without a card or ignition change', () => {
    const state: RfidStageState = { card: 'A', at: T };
    const result = run(state, [pos(T + 1000), pos(T + 2000, { speed: 40 })]);
    expect(result.state).toBe(state);
    expect(result.effects).toBeUndefined();
  });

  it('reads a card at the start of a drive as the driver from the ignition on, upper case', () => {
    const { state, effects } = run(undefined, [pos(T, { ignition: true }), pos(T + 30_000, { ignition: true, rfid: ' card-7 ' })]);
    expect(effects).toEqual([{ id: `rfidRead:${T + 30_000}:CARD-7`, kind: 'rfidRead', payload: { card: 'CARD-7', ts: T + 30_000, from: T } }]);
    expect(state).toEqual({ on: T, card: 'CARD-7', at: T + 30_000 });
  });

  it('reads a card long after the ignition went on, or with it off, from the read itself', () => {
    const late = T + READ_AT_START_MS + 1;
    expect(run({ on: T }, [pos(late, { ignition: true, rfid: 'A' })]).effects?.[0]?.payload).toEqual({ card: 'A', ts: late, from: late });
    const off = run({ on: T }, [pos(T + 1000, { ignition: false }), pos(T + 2000, { rfid: 'A' })]);
    expect(off.effects?.[0]?.payload).toEqual({ card: 'A', ts: T + 2000, from: T + 2000 });
    expect(off.state).toEqual({ card: 'A', at: T + 2000 });
  });

  it('counts a card held to the reader once, and again after a pause or when another card is read', () => {
    const first = run(undefined, [pos(T, { rfid: 'A' }), pos(T + 40_000, { rfid: 'A' }), pos(T + 80_000, { rfid: 'A' })]);
    expect(first.effects).toHaveLength(1);
    const again = run(first.state, [pos(T + 80_000 + REREAD_GAP_MS + 1, { rfid: 'A' }), pos(T + 80_000 + REREAD_GAP_MS + 2, { rfid: 'B' })]);
    expect(again.effects?.map((e) => e.payload['card'])).toEqual(['A', 'B']);
  });

  it('decides the same effect ids when a transition is computed again', () => {
    const positions = [pos(T, { ignition: true }), pos(T + 5000, { rfid: 'A' })];
    expect(run(undefined, positions).effects).toEqual(run(undefined, positions).effects);
  });

  it('parses its stored state and refuses anything else', () => {
    expect(rfidStage.parse({ on: 1, card: 'A', at: 2 })).toEqual({ on: 1, card: 'A', at: 2 });
    expect(rfidStage.parse({ on: 'x' })).toBeUndefined();
  });
});
