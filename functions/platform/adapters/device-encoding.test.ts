import { describe, expect, it } from 'vitest';
import {
  DeviceEncodingError,
  encodeDeviceCommand,
  teltonikaSetDigout,
  teltonikaSetOperatingMode,
} from './device-encoding';
import { operatingModes } from '../../../shared/schemas/commands';
import { TopicError } from '../../../shared/mqtt-topics';

const IMEI = '356307042441013';

describe('Teltonika setdigout', () => {
  it('switches one output and leaves the others alone', () => {
    expect(teltonikaSetDigout({ output: 1, on: true, durationSeconds: 60 })).toBe('setdigout 1?? 60');
    expect(teltonikaSetDigout({ output: 2, on: true, durationSeconds: 60 })).toBe('setdigout ?1? ? 60');
    expect(teltonikaSetDigout({ output: 3, on: true, durationSeconds: 65000 })).toBe('setdigout ??1 ? ? 65000');
    expect(teltonikaSetDigout({ output: 1, on: true })).toBe('setdigout 1??');
    expect(teltonikaSetDigout({ output: 3, on: false })).toBe('setdigout ??0');
    expect(teltonikaSetDigout({ output: 2, on: false, durationSeconds: 30 })).toBe('setdigout ?0?');
  });
});

describe('Teltonika operating mode', () => {
  it('writes record and send periods for every network mode', () => {
    expect(teltonikaSetOperatingMode('realtime1min')).toBe(
      'setparam 10000:3600;10005:3600;10050:60;10055:60;10100:3600;10105:3600;10150:60;10155:60;10200:3600;10205:3600;10250:60;10255:60',
    );
    for (const mode of operatingModes) expect(teltonikaSetOperatingMode(mode)).toMatch(/^setparam (\d+:\d+;){11}\d+:\d+$/);
  });
});

describe('encodeDeviceCommand', () => {
  it('native: trackers/{imei}/commands with id, type and params', () => {
    const encoded = encodeDeviceCommand(IMEI, { id: 'c1', type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } }, 'native');
    expect(encoded.topic).toBe(`trackers/${IMEI}/commands`);
    expect(encoded.qos).toBe(1);
    expect(JSON.parse(encoded.payload)).toEqual({ id: 'c1', type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } });
  });

  it('native: unknown command types pass through unchanged', () => {
    const encoded = encodeDeviceCommand(IMEI, { id: 'c2', type: 'rfidPair', params: { card: 'abc' } }, 'native');
    expect(JSON.parse(encoded.payload)).toEqual({ id: 'c2', type: 'rfidPair', params: { card: 'abc' } });
  });

  it('teltonika: {imei}/commands with a CMD text', () => {
    const dout = encodeDeviceCommand(IMEI, { id: 'c3', type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } }, 'teltonika');
    expect(dout).toEqual({ topic: `${IMEI}/commands`, payload: '{"CMD":"setdigout 1?? 60"}', qos: 1 });
    const mode = encodeDeviceCommand(IMEI, { id: 'c4', type: 'operatingMode', params: { mode: 'fixed24h' } }, 'teltonika');
    expect(JSON.parse(mode.payload).CMD).toMatch(/^setparam 10000:86400;10005:86400;10050:86400;/);
  });

  it("eco thresholds: g to a native tracker, FMB green-driving parameters in m/s² to a Teltonika one", () => {
    const params = { sensitivity: 'normal', accelerationG: 0.37, brakingG: 0.38, corneringG: 0.38 };
    expect(JSON.parse(encodeDeviceCommand(IMEI, { id: 'c5', type: 'ecoThresholds', params }, 'native').payload)).toEqual({ id: 'c5', type: 'ecoThresholds', params });
    const teltonika = encodeDeviceCommand(IMEI, { id: 'c6', type: 'ecoThresholds', params }, 'teltonika');
    expect(JSON.parse(teltonika.payload)).toEqual({ CMD: 'setparam 11000:1;11004:3.6;11005:3.7;11006:3.7;11008:1' });
    expect(() => encodeDeviceCommand(IMEI, { id: 'c7', type: 'ecoThresholds', params: { sensitivity: 'wild', accelerationG: 1, brakingG: 1, corneringG: 1 } }, 'native')).toThrow(DeviceEncodingError);
  });

  it('refuses invalid params and types without a Teltonika form', () => {
    const bad = (params: Record<string, unknown>, protocol: 'native' | 'teltonika') =>
      () => encodeDeviceCommand(IMEI, { id: 'x', type: 'dout', params }, protocol);
    expect(bad({ output: 4, on: true }, 'teltonika')).toThrow(DeviceEncodingError);
    expect(bad({ output: 1, on: true, durationSeconds: 0 }, 'native')).toThrow(DeviceEncodingError);
    expect(bad({ output: 1, on: true, durationSeconds: 65001 }, 'teltonika')).toThrow(DeviceEncodingError);
    expect(bad({ output: 1 }, 'native')).toThrow(DeviceEncodingError);
    expect(() => encodeDeviceCommand(IMEI, { id: 'x', type: 'operatingMode', params: { mode: 'sometimes' } }, 'teltonika')).toThrow(
      DeviceEncodingError,
    );
    expect(() => encodeDeviceCommand(IMEI, { id: 'x', type: 'rfidPair', params: {} }, 'teltonika')).toThrow(/no Teltonika form/);
    expect(() => encodeDeviceCommand(IMEI, { id: '', type: 'dout', params: { output: 1, on: true } }, 'native')).toThrow(DeviceEncodingError);
    expect(() => encodeDeviceCommand('123', { id: 'x', type: 'dout', params: { output: 1, on: true } }, 'native')).toThrow(TopicError);
  });
});
