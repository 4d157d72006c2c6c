/**
 * The rule bridge of the local broker: real MQTT trackers publish, recording handlers stand in for
 * the ingest functions. A handler that takes arrays gets the messages of a short window together,
 * in order, never more batches at once than allowed; every handler is retried like an
 * asynchronous Lambda invocation, then the error action gets each message; stopping hands over
 * what the broker already acknowledged.
 */
import mqtt from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { iotRules, type IotRuleDef, type IotRuleEvent } from '../../shared/iot-rules';
import { imeiFrom } from '../../shared/validators/imei';
import { lambdaContext } from './api-event';
import { startLocalBroker, type BatchRuleHandler, type BridgeBatching, type LocalBroker, type RuleHandler } from './broker';

const telemetryRule = iotRules.find((r) => r.name === 'trackerTelemetry') as IotRuleDef;
const ackRule = iotRules.find((r) => r.name === 'commandAck') as IotRuleDef;
const IMEI = imeiFrom('35693812000001');

const batchHandler = (handle: (events: IotRuleEvent[]) => Promise<unknown>): BatchRuleHandler => Object.assign(handle, { acceptsBatches: true as const });
const bodyOf = (e: IotRuleEvent) => JSON.parse(Buffer.from(e.payload, 'base64').toString()) as { n: number };

let broker: LocalBroker | undefined;
let tracker: mqtt.MqttClient | undefined;
const errors: Array<{ rule: string; n: number; error: string }> = [];

async function start(rules: Array<{ rule: IotRuleDef; handler: RuleHandler | BatchRuleHandler }>, batching: Partial<BridgeBatching> = {}) {
  errors.length = 0;
  broker = await startLocalBroker({
    port: 0,
    host: '127.0.0.1',
    rules,
    batching,
    retryDelaysMs: [20, 40],
    context: (name, id) => lambdaContext(name, id),
    onRuleError: async (rule, event, error) => {
      errors.push({ rule: rule.name, n: bodyOf(event).n, error: error instanceof Error ? error.message : String(error) });
    },
  });
  tracker = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { clientId: IMEI, reconnectPeriod: 0 });
  return broker;
}

/** Publishes n numbered messages at QoS 1 without waiting between them. */
async function publish(count: number, topic = `trackers/${IMEI}/telemetry`, from = 0) {
  await Promise.all(Array.from({ length: count }, (_, i) => tracker?.publishAsync(topic, JSON.stringify({ n: from + i }), { qos: 1 })));
}

afterEach(async () => {
  await tracker?.endAsync();
  await broker?.stop();
  tracker = undefined;
  broker = undefined;
});

describe('rule bridge', () => {
  it('hands a handler that takes arrays the messages of a window together, in order; the others one by one', async () => {
    const batches: IotRuleEvent[][] = [];
    const singles: IotRuleEvent[] = [];
    await start(
      [
        { rule: telemetryRule, handler: batchHandler(async (events) => void batches.push(events)) },
        { rule: ackRule, handler: async (event: IotRuleEvent) => void singles.push(event) },
      ],
      { windowMs: 50, maxMessages: 1000 },
    );
    await publish(40);
    await publish(3, `trackers/${IMEI}/ack`);
    await vi.waitFor(() => expect(batches.flat()).toHaveLength(40));
    await vi.waitFor(() => expect(singles).toHaveLength(3));

    expect(batches.flat().map((e) => bodyOf(e).n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(batches.length).toBeLessThan(40);
    expect(batches.flat().every((e) => e.topic === `trackers/${IMEI}/telemetry` && e.imei === IMEI && e.receivedAt > 0)).toBe(true);
    expect(singles.every((e) => !Array.isArray(e) && e.topic === `trackers/${IMEI}/ack`)).toBe(true);
  });

  it('closes a batch at maxMessages without waiting for the window', async () => {
    const batches: number[] = [];
    await start([{ rule: telemetryRule, handler: batchHandler(async (events) => void batches.push(events.length)) }], { windowMs: 60_000, maxMessages: 5 });
    await publish(10);
    await vi.waitFor(() => expect(batches).toEqual([5, 5]));
  });

  it('runs at most maxInFlight batches at once, and what arrives meanwhile goes in the next one together', async () => {
    let running = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sizes: number[] = [];
    await start(
      [
        {
          rule: telemetryRule,
          handler: batchHandler(async (events) => {
            running++;
            most = Math.max(most, running);
            sizes.push(events.length);
            await gate;
            running--;
          }),
        },
      ],
      { windowMs: 5, maxMessages: 1000, maxInFlight: 1 },
    );
    await publish(1);
    await vi.waitFor(() => expect(sizes).toEqual([1]));
    // The store is busy: these wait, well past their window, and then go as one batch.
    await publish(30, undefined, 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(sizes).toEqual([1]);
    expect(broker?.pending()).toBe(31);
    release();
    await vi.waitFor(() => expect(sizes).toEqual([1, 30]));
    expect(most).toBe(1);
    await vi.waitFor(() => expect(broker?.pending()).toBe(0));
  });

  it('tries a failing delivery again, as Lambda retries an asynchronous invocation', async () => {
    let tries = 0;
    const handled: number[] = [];
    await start([
      {
        rule: telemetryRule,
        handler: batchHandler(async (events) => {
          if (++tries < 3) throw new Error('DynamoDB throttled');
          handled.push(...events.map((e) => bodyOf(e).n));
        }),
      },
    ]);
    await publish(4);
    await vi.waitFor(() => expect(handled).toEqual([0, 1, 2, 3]));
    expect(tries).toBe(3);
    expect(errors).toEqual([]);
  });

  it('after the last try, gives every message of the batch to the error action', async () => {
    let tries = 0;
    const single: RuleHandler = async () => {
      throw new Error('ack store down');
    };
    await start(
      [
        {
          rule: telemetryRule,
          handler: batchHandler(async () => {
            tries++;
            throw new Error('DynamoDB unreachable');
          }),
        },
        { rule: ackRule, handler: single },
      ],
      { windowMs: 20 },
    );
    await publish(3);
    await publish(1, `trackers/${IMEI}/ack`, 100);
    await vi.waitFor(() => expect(errors).toHaveLength(4));
    expect(tries).toBe(3);
    expect(errors.filter((e) => e.rule === 'trackerTelemetry')).toEqual([0, 1, 2].map((n) => ({ rule: 'trackerTelemetry', n, error: 'DynamoDB unreachable' })));
    expect(errors.filter((e) => e.rule === 'commandAck')).toEqual([{ rule: 'commandAck', n: 100, error: 'ack store down' }]);
  });

  it('hands over what it acknowledged before it stops', async () => {
    const handled: number[] = [];
    const b = await start([{ rule: telemetryRule, handler: batchHandler(async (events) => void handled.push(...events.map((e) => bodyOf(e).n))) }], {
      windowMs: 60_000,
    });
    await publish(7);
    // The bridge takes a message right after the broker acknowledged it.
    await vi.waitFor(() => expect(b.pending()).toBe(7));
    await tracker?.endAsync();
    tracker = undefined;
    await b.stop();
    broker = undefined;
    expect(handled).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
