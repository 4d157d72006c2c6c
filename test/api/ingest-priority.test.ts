/**
 * The trackers' positions do not wait behind the demo history: while the runtime fills history
 * through the ingest path on its own stream (infra/local/runtime.ts, ingestHistory), a position a
 * tracker publishes over MQTT is stored and on the live map (GET /api/v1/user/realtime/units)
 * while most of the history still waits. How long it takes is printed, not asserted: speed is
 * measured by `npm run bench:start` on a quiet machine, not by a test on a loaded one.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateUnitHistory, historyWindow, bufferedMessages } from '../../infra/local/demo-history';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers, simulatedUnits } from '../../infra/local/seed';
import { telemetryMessage } from '../../infra/local/simulator/protocol';
import { eventually } from '../support/eventually';
import { call } from '../support/http';
import { startRuntime } from '../support/runtime';
import { loginAs } from '../support/sessions';

let rt: EmbeddedRuntime;
beforeAll(async () => {
  rt = await startRuntime();
});
afterAll(async () => {
  await rt?.stop();
});

describe('a live position during the demo history fill', () => {
  it('is stored and on the live map while thousands of history messages wait', async () => {
    const { token } = await loginAs(demoUsers.admin.username, DEMO_PASSWORD);
    // Three demo units' 30 days, all handed to the history stream at once.
    const window = historyWindow(Date.now() - 3_600_000, 30);
    const messages = simulatedUnits(3).flatMap((unit, index) =>
      bufferedMessages(generateUnitHistory({ unit, index, from: window.from, to: window.to }).records).map((chunk) => telemetryMessage(unit.protocol, unit.imei, chunk)),
    );
    expect(messages.length).toBeGreaterThan(500);
    let handled = 0;
    const fill = Promise.all(messages.map((m) => rt.ingestHistory(m.topic, m.payload).then(() => handled++)));
    // The rest of the fill is dropped when the runtime stops.
    fill.catch(() => undefined);
    await eventually(async () => handled, (n) => n > 0, 'the fill to be under way');

    const imei = demoImei(4);
    const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 });
    const ts = Math.floor(Date.now() / 1000) * 1000;
    const sent = Date.now();
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts, lat: 59.3326, lon: 18.0649, spd: 12, ign: true, sat: 10 }), { qos: 1 });
    const onMap = await eventually(
      () => call<{ data: Array<{ imei: string; state: { ts: string } | null }> }>(rt.url, 'GET', '/api/v1/user/realtime/units', undefined, { token }),
      (r) => r.body.data.find((u) => u.imei === imei)?.state?.ts === new Date(ts).toISOString(),
      'the live position on the map',
      { timeoutMs: 10_000, everyMs: 20 },
    );
    const tookMs = Date.now() - sent;
    const waiting = messages.length - handled;
    await tracker.endAsync();
    console.log(`live position on the map after ${tookMs} ms, with ${waiting} of ${messages.length} history messages not yet handled`);
    expect(onMap.status).toBe(200);
    // On the map while the fill was still far from done: it did not wait behind the history.
    expect(waiting).toBeGreaterThan(messages.length / 4);
  });
});
