import { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createIotDeviceGateway } from './devices';
import { iotDataEndpoint } from './index';
import { createIotLiveBus } from './live';

const iot = mockClient(IoTDataPlaneClient);
const client = () => new IoTDataPlaneClient({ region: 'eu-north-1', endpoint: 'https://example-ats.iot.eu-north-1.amazonaws.com' });
const IMEI = '356307042441013';

afterEach(() => iot.reset());

const published = () =>
  iot.commandCalls(PublishCommand).map((call) => {
    const { payload, ...rest } = call.args[0].input;
    return { ...rest, payload: new TextDecoder().decode(payload as Uint8Array) };
  });

describe('IoT device gateway', () => {
  it('native: trackers/{imei}/commands, QoS 1, { id, type, params }', async () => {
    iot.on(PublishCommand).resolves({});
    await createIotDeviceGateway(client()).send(IMEI, { id: 'c1', type: 'dout', params: { output: 2, on: false } }, 'native');
    expect(published()).toEqual([
      { topic: `trackers/${IMEI}/commands`, qos: 1, payload: JSON.stringify({ id: 'c1', type: 'dout', params: { output: 2, on: false } }) },
    ]);
  });

  it('teltonika: {imei}/commands, QoS 1, { CMD }', async () => {
    iot.on(PublishCommand).resolves({});
    await createIotDeviceGateway(client()).send(IMEI, { id: 'c2', type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } }, 'teltonika');
    expect(published()).toEqual([{ topic: `${IMEI}/commands`, qos: 1, payload: '{"CMD":"setdigout 1?? 60"}' }]);
  });

  it('publishes nothing for a command it cannot encode', async () => {
    await expect(createIotDeviceGateway(client()).send(IMEI, { id: 'c3', type: 'rfidPair', params: {} }, 'teltonika')).rejects.toThrow(
      /no Teltonika form/,
    );
    expect(iot.commandCalls(PublishCommand)).toHaveLength(0);
  });
});

describe('IoT live bus', () => {
  it('publishes JSON on live/{accountId}/units/{imei} with QoS 0', async () => {
    iot.on(PublishCommand).resolves({});
    await createIotLiveBus(client()).publish({ accountId: 'acc-1', imei: IMEI, viewers: [] }, { type: 'event', event: 'geofenceExit' });
    expect(published()).toEqual([{ topic: `live/acc-1/units/${IMEI}`, qos: 0, payload: '{"type":"event","event":"geofenceExit"}' }]);
  });

  it("publishes once more on each ordinary user's own topic for a unit granted to them", async () => {
    iot.on(PublishCommand).resolves({});
    await createIotLiveBus(client()).publish({ accountId: 'acc-1', imei: IMEI, viewers: ['u-1', 'u-2'] }, { type: 'position' });
    expect(published().map((p) => p.topic)).toEqual([`live/acc-1/units/${IMEI}`, `live/acc-1/users/u-1/units/${IMEI}`, `live/acc-1/users/u-2/units/${IMEI}`]);
  });
});

describe('IoT data endpoint', () => {
  it('adds https:// to the host from IOT_DATA_ENDPOINT', () => {
    expect(iotDataEndpoint('abc-ats.iot.eu-north-1.amazonaws.com')).toBe('https://abc-ats.iot.eu-north-1.amazonaws.com');
    expect(iotDataEndpoint('https://abc-ats.iot.eu-north-1.amazonaws.com')).toBe('https://abc-ats.iot.eu-north-1.amazonaws.com');
  });
});
