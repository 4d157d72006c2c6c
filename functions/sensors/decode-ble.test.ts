/**
 * BLE readings as the decoders hand them to the sensors stage: the native `ble` array as sent, and
 * the Teltonika FMB BLE IO elements (temperature 25-28 in 0.01 C, humidity 86/104/106/108 %,
 * battery 29/20/22/23 %) as slot readings `#1`..`#4`, with the firmware's error values left out.
 */
import { describe, expect, it } from 'vitest';
import { decodeNativeRecord } from '../ingest/decode-native';
import { decodeTeltonikaRecord } from '../ingest/decode-teltonika';

const teltonika = (io: Record<string, unknown>) => decodeTeltonikaRecord({ state: { reported: { ts: 1_700_000_000_000, latlng: '59.3,18.1', ...io } } });

describe('BLE readings', () => {
  it('are read from the native ble array', () => {
    const p = decodeNativeRecord({ ts: 1_700_000_000_000, lat: 59.3, lon: 18.1, ble: [{ mac: 'AC23F4100001', temp: -18.5, hum: 61, bat: 2.9 }, { mac: 'AC23F4100002', door: true }] });
    expect(p.ble).toEqual([
      { mac: 'AC23F4100001', temp: -18.5, hum: 61, door: undefined, bat: 2.9 },
      { mac: 'AC23F4100002', temp: undefined, hum: undefined, door: true, bat: undefined },
    ]);
  });

  it('are read from the Teltonika BLE IO elements by slot', () => {
    const p = teltonika({ '25': -1850, '86': 40, '29': 90, '27': '2150', '106': 101, '22': 7, '28': 3000, '108': 55 });
    expect(p.ble).toEqual([
      { mac: '#1', temp: -18.5, hum: 40, door: undefined, bat: undefined, batPct: 90 },
      { mac: '#3', temp: 21.5, hum: undefined, door: undefined, bat: undefined, batPct: 7 },
      { mac: '#4', temp: undefined, hum: 55, door: undefined, bat: undefined, batPct: undefined },
    ]);
  });

  it('are absent when no slot reports anything usable', () => {
    expect(teltonika({ '239': 1 }).ble).toBeUndefined();
    expect(teltonika({ '25': 4000, '26': 2000 }).ble).toBeUndefined();
  });
});
