import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalDeviceGateway } from './devices';
import { createLocalLiveBus } from './live';
import { localBroker, registerLocalBroker, unregisterLocalBroker } from './local-broker';

const IMEI = '356307042441013';

afterEach(() => unregisterLocalBroker());

function recorder() {
  const published: { topic: string; payload: string; qos: 0 | 1 }[] = [];
  registerLocalBroker(async (topic, payload, qos) => {
    published.push({ topic, payload, qos });
  });
  return published;
}

describe('local broker seam', () => {
  it('fails clearly when the broker is not running', async () => {
    expect(() => localBroker()).toThrow('the local MQTT broker is not running');
    await expect(createLocalLiveBus().publish({ accountId: 'acc-1', imei: IMEI, viewers: [] }, { type: 'position' })).rejects.toThrow('the local MQTT broker is not running');
    await expect(createLocalDeviceGateway().send(IMEI, { id: 'c1', type: 'dout', params: { output: 1, on: true } }, 'native')).rejects.toThrow(
      'the local MQTT broker is not running',
    );
  });

  it('LiveBus publishes the message on live/{accountId}/units/{imei} with QoS 0', async () => {
    const published = recorder();
    await createLocalLiveBus().publish({ accountId: 'acc-1', imei: IMEI, viewers: [] }, { type: 'position', lat: 59.33, lon: 18.07 });
    expect(published).toEqual([{ topic: `live/acc-1/units/${IMEI}`, payload: '{"type":"position","lat":59.33,"lon":18.07}', qos: 0 }]);
  });

  it('DeviceGateway publishes per protocol with QoS 1', async () => {
    const published = recorder();
    const devices = createLocalDeviceGateway();
    await devices.send(IMEI, { id: 'c1', type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } }, 'native');
    await devices.send(IMEI, { id: 'c2', type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } }, 'teltonika');
    expect(published).toEqual([
      {
        topic: `trackers/${IMEI}/commands`,
        payload: JSON.stringify({ id: 'c1', type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } }),
        qos: 1,
      },
      { topic: `${IMEI}/commands`, payload: '{"CMD":"setdigout 1?? 60"}', qos: 1 },
    ]);
  });
});

describe('with a real aedes broker', () => {
  let server: Server | undefined;
  let broker: Aedes | undefined;
  let client: mqtt.MqttClient | undefined;

  afterEach(async () => {
    await client?.endAsync();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    await new Promise<void>((done) => (broker ? broker.close(() => done()) : done()));
  });

  it('a command and a live message reach a subscribed MQTT client', async () => {
    const aedes = await Aedes.createBroker();
    broker = aedes;
    server = createServer(aedes.handle);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;

    registerLocalBroker(
      (topic, payload, qos) =>
        new Promise<void>((resolve, reject) =>
          aedes.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false }, (error) =>
            error ? reject(error) : resolve(),
          ),
        ),
    );

    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: 'test-subscriber', reconnectPeriod: 0 });
    await client.subscribeAsync([`trackers/${IMEI}/commands`, 'live/acc-1/units/+'], { qos: 1 });
    const received: { topic: string; payload: string }[] = [];
    const both = new Promise<void>((resolve) => {
      client?.on('message', (topic, payload) => {
        received.push({ topic, payload: payload.toString() });
        if (received.length === 2) resolve();
      });
    });

    await createLocalDeviceGateway().send(IMEI, { id: 'c9', type: 'operatingMode', params: { mode: 'theft' } }, 'native');
    await createLocalLiveBus().publish({ accountId: 'acc-1', imei: IMEI, viewers: [] }, { type: 'command', id: 'c9', state: 'pending' });
    await both;

    expect(received).toEqual(
      expect.arrayContaining([
        { topic: `trackers/${IMEI}/commands`, payload: JSON.stringify({ id: 'c9', type: 'operatingMode', params: { mode: 'theft' } }) },
        { topic: `live/acc-1/units/${IMEI}`, payload: JSON.stringify({ type: 'command', id: 'c9', state: 'pending' }) },
      ]),
    );
  });
});
