/**
 * What the simulated trackers send and how they answer: records decode through the real ingest
 * decoders, and commands are exactly the bytes the server's device encoder produces.
 */
import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../../functions/ingest/decode';
import { encodeDeviceCommand } from '../../../functions/platform/adapters/device-encoding';
import { demoImei } from '../seed';
import { answerCommand, answerNativeCommand, answerTeltonikaCommand, commandTopic, telemetryMessage } from './protocol';
import { SimulatedVehicle, type TrackerRecord } from './vehicle';

const START = Date.UTC(2025, 5, 2, 9);
const imei = demoImei(0);

function vehicle() {
  return new SimulatedVehicle({ index: 0, imei, vehicleType: 'lorry', seed: 42, start: START, initial: 'driving', sensors: [{ mac: 'AC23F41000A1', kind: 'reefer' }] });
}

function records(n: number): TrackerRecord[] {
  const v = vehicle();
  return v.advanceTo(START + n * 15_000 + 500).slice(0, n);
}

describe('tracker records', () => {
  it('decode as native records with every field the protocol has', () => {
    const [r] = records(1) as [TrackerRecord];
    const msg = telemetryMessage('native', imei, [r]);
    // Through Basic Ingest, as `npm run provision` configures a native tracker.
    expect(msg.topic).toBe(`$aws/rules/TrackingPortal_trackerTelemetry/trackers/${imei}/telemetry`);
    const decoded = decodeMessage(Buffer.from(msg.payload));
    expect(decoded.kind).toBe('positions');
    if (decoded.kind !== 'positions') return;
    expect(decoded.rejected).toEqual([]);
    expect(decoded.positions[0]).toMatchObject({
      ts: r.ts,
      lat: r.lat,
      lon: r.lon,
      fix: true,
      speed: r.speedKmh,
      heading: r.heading,
      ignition: r.ignition,
      movement: r.moving,
      odometer: r.odometerM,
      engineSeconds: r.engineS,
      extVolts: r.extVolts,
      batVolts: r.batVolts,
      dout: { '1': false, '2': false, '3': false },
      ble: [{ mac: 'AC23F41000A1', temp: r.ble[0]?.temp, hum: r.ble[0]?.hum, bat: r.ble[0]?.bat, door: undefined }],
    });
  });

  it('carry a harsh episode as the protocol has it: native `harsh`, Teltonika green driving (IO 253, 254, 243)', () => {
    const [r] = records(1) as [TrackerRecord];
    const harsh = { ...r, cause: 'harsh' as const, harsh: { kind: 'braking' as const, g: 0.47, ms: 1200 } };
    expect(JSON.parse(telemetryMessage('native', imei, [harsh]).payload)).toMatchObject({ harsh: { kind: 'braking', g: 0.47, ms: 1200 } });
    expect(JSON.parse(telemetryMessage('teltonika', imei, [harsh]).payload).state.reported).toMatchObject({ evt: '253', '253': 2, '254': 47, '243': 1200 });
    expect(JSON.parse(telemetryMessage('native', imei, [r]).payload)).not.toHaveProperty('harsh');
    expect(JSON.parse(telemetryMessage('teltonika', imei, [r]).payload).state.reported).not.toHaveProperty('253');
  });

  it('go as one buffered batch when several are due at once', () => {
    const batch = records(3);
    for (const protocol of ['native', 'teltonika'] as const) {
      const decoded = decodeMessage(Buffer.from(telemetryMessage(protocol, imei, batch).payload));
      expect(decoded.kind === 'positions' && decoded.positions.map((p) => p.ts)).toEqual(batch.map((r) => r.ts));
    }
  });

  it('decode as Teltonika AWS JSON on the device\'s data topic', () => {
    const [r] = records(1) as [TrackerRecord];
    const msg = telemetryMessage('teltonika', imei, [r]);
    expect(msg.topic).toBe(`${imei}/data`);
    const decoded = decodeMessage(Buffer.from(msg.payload));
    expect(decoded).toMatchObject({ kind: 'positions', protocol: 'teltonika', rejected: [] });
    if (decoded.kind !== 'positions') return;
    expect(decoded.positions[0]).toMatchObject({
      ts: r.ts,
      lat: r.lat,
      lon: r.lon,
      fix: true,
      speed: Math.round(r.speedKmh),
      heading: r.heading,
      sats: r.sats,
      ignition: r.ignition,
      odometer: r.odometerM,
      engineSeconds: r.engineS,
      extVolts: r.extVolts,
      batVolts: r.batVolts,
      dout: { '1': false, '2': false, '3': false },
    });
  });
});

describe('native commands', () => {
  it('switch an output as the server sends it, acknowledged with the command id', () => {
    const v = vehicle();
    const cmd = encodeDeviceCommand(imei, { id: 'c-1', type: 'dout', params: { output: 2, on: true, durationSeconds: 60 } }, 'native');
    expect(cmd.topic).toBe(commandTopic('native', imei));
    const ack = answerNativeCommand(v, cmd.payload);
    expect(ack).toEqual({ topic: `$aws/rules/TrackingPortal_commandAck/trackers/${imei}/ack`, payload: JSON.stringify({ id: 'c-1', ok: true }) });
    expect(v.outputs['2']).toBe(true);
    const next = v.advanceTo(START + 1_000);
    expect(next[0]?.dout['2']).toBe(true);
  });

  it('change the operating mode, and with it the record periods', () => {
    const v = vehicle();
    const cmd = encodeDeviceCommand(imei, { id: 'c-2', type: 'operatingMode', params: { mode: 'theft' } }, 'native');
    expect(JSON.parse(answerNativeCommand(v, cmd.payload)?.payload ?? '{}')).toEqual({ id: 'c-2', ok: true });
    expect(v.operatingMode).toBe('theft');
    expect(v.reportIntervals).toEqual({ movingS: 300, parkedS: 1800 });
  });

  it('refuse what they cannot do, saying why', () => {
    const v = vehicle();
    const bad = answerNativeCommand(v, JSON.stringify({ id: 'c-3', type: 'dout', params: { output: 4, on: true } }));
    expect(JSON.parse(bad?.payload ?? '{}')).toEqual({ id: 'c-3', ok: false, error: 'InvalidParams' });
    const unknown = answerNativeCommand(v, JSON.stringify({ id: 'c-4', type: 'selfDestruct', params: {} }));
    expect(JSON.parse(unknown?.payload ?? '{}')).toEqual({ id: 'c-4', ok: false, error: 'UnsupportedCommand' });
    expect(v.outputs).toEqual({ '1': false, '2': false, '3': false });
  });

  it('ignore messages without an id to answer to', () => {
    const v = vehicle();
    expect(answerNativeCommand(v, 'not json')).toBeNull();
    expect(answerNativeCommand(v, JSON.stringify({ type: 'dout', params: { output: 1, on: true } }))).toBeNull();
    expect(v.outputs['1']).toBe(false);
  });
});

describe('Teltonika commands', () => {
  it('answer setdigout as an FMB does, and switch the output', () => {
    const v = vehicle();
    const cmd = encodeDeviceCommand(imei, { id: 'x', type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } }, 'teltonika');
    expect(cmd.topic).toBe(commandTopic('teltonika', imei));
    const answer = answerTeltonikaCommand(v, cmd.payload);
    expect(answer).toEqual({ topic: `${imei}/data`, payload: JSON.stringify({ RSP: 'DOUT1:ON Timeout:60s DOUT2:IGNORED DOUT3:IGNORED' }) });
    expect(v.outputs['1']).toBe(true);
    // The answer reaches the ingest path as a command answer, not as a position.
    expect(decodeMessage(Buffer.from(answer?.payload ?? ''))).toEqual({ kind: 'commandAnswer', text: 'DOUT1:ON Timeout:60s DOUT2:IGNORED DOUT3:IGNORED' });

    const third = encodeDeviceCommand(imei, { id: 'y', type: 'dout', params: { output: 3, on: false } }, 'teltonika');
    expect(JSON.parse(answerCommand('teltonika', v, third.payload)?.payload ?? '{}')).toEqual({ RSP: 'DOUT1:IGNORED DOUT2:IGNORED DOUT3:OFF Timeout:INFINITY' });
  });

  it('take the record periods of an operating mode from setparam', () => {
    const v = vehicle();
    const cmd = encodeDeviceCommand(imei, { id: 'x', type: 'operatingMode', params: { mode: 'realtime1min' } }, 'teltonika');
    const rsp = (JSON.parse(answerTeltonikaCommand(v, cmd.payload)?.payload ?? '{}') as { RSP: string }).RSP;
    expect(rsp).toMatch(/^New value 10000:3600;10005:3600;10050:60;10055:60;/);
    expect(v.reportIntervals).toEqual({ movingS: 60, parkedS: 3600 });
  });

  it('leave unknown commands unanswered', () => {
    const v = vehicle();
    expect(answerTeltonikaCommand(v, JSON.stringify({ CMD: 'getver' }))).toBeNull();
    expect(answerTeltonikaCommand(v, JSON.stringify({ CMD: 'setdigout 12' }))).toBeNull();
  });
});
