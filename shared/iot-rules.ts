/**
 * The IoT rules manifest: which tracker topics reach which handler. The CDK stack builds IoT Core
 * topic rules from it and the embedded runtime's rule bridge reproduces their output.
 *
 * Every rule hands the handler the raw payload base64-encoded, so that a malformed message still
 * reaches our decoder (which dead-letters it with a reason) instead of failing inside IoT Core.
 */
import { TRACKER_PUBLISHES, basicIngestTopic, trackerTopic, trackerTopicFilter, trackerImeiLevel, type TrackerTopicName } from './mqtt-topics';

export interface IotRuleDef {
  readonly name: string;
  readonly description: string;
  /** The tracker topic it listens on (shared/mqtt-topics.ts). */
  readonly topic: TrackerTopicName;
  /** MQTT topic filter of the rule's FROM clause, derived from `topic`. */
  readonly topicFilter: string;
  /** 1-based topic level holding the IMEI, derived from `topic`. */
  readonly imeiLevel: number;
  readonly handler: { readonly capability: 'ingest'; readonly file: string };
}

function rule(def: Omit<IotRuleDef, 'topicFilter' | 'imeiLevel'>): IotRuleDef {
  return { ...def, topicFilter: trackerTopicFilter(def.topic), imeiLevel: trackerImeiLevel(def.topic) };
}

export const iotRules: readonly IotRuleDef[] = [
  rule({
    name: 'trackerTelemetry',
    description: 'Native and Teltonika positions on trackers/{imei}/telemetry.',
    topic: 'telemetry',
    handler: { capability: 'ingest', file: 'handle-telemetry' },
  }),
  rule({
    name: 'teltonikaData',
    description: "Teltonika devices on their default {imei}/data topic (positions and command answers).",
    topic: 'teltonikaData',
    handler: { capability: 'ingest', file: 'handle-telemetry' },
  }),
  rule({
    name: 'commandAck',
    description: 'Command acknowledgements on trackers/{imei}/ack.',
    topic: 'ack',
    handler: { capability: 'ingest', file: 'handle-ack' },
  }),
];

/** IoT rule names allow letters, digits and underscores only; the stack name keeps stages apart. */
export function iotRuleName(stackName: string, rule: Pick<IotRuleDef, 'name'>): string {
  return `${stackName.replace(/[^A-Za-z0-9_]/g, '_')}_${rule.name}`;
}

/**
 * The stack name the embedded runtime names its rules after: the production stack's
 * (infra/config.ts `stackNameFor('prod')`), so a tracker configured for it publishes to the same
 * Basic Ingest topics locally.
 */
export const EMBEDDED_STACK_NAME = 'TrackingPortal';

/**
 * Where a tracker publishes through Basic Ingest: per rule on a topic trackers publish to, that
 * rule's prefixed form of the tracker's own topic (`$aws/rules/<rule name>/trackers/<imei>/telemetry`),
 * by the tracker topic it stands for. What `npm run provision` hands every tracker.
 */
export function trackerBasicIngestTopics(
  stackName: string,
  imei: string,
  rules: readonly IotRuleDef[] = iotRules,
): Partial<Record<TrackerTopicName, string>> {
  const topics: Partial<Record<TrackerTopicName, string>> = {};
  for (const rule of rules) {
    if (!TRACKER_PUBLISHES.includes(rule.topic)) continue;
    topics[rule.topic] = basicIngestTopic(iotRuleName(stackName, rule), trackerTopic(rule.topic, imei));
  }
  return topics;
}

/** The IoT SQL of a rule; its output is `IotRuleEvent`. */
export function iotRuleSql(rule: IotRuleDef): string {
  return (
    `SELECT encode(*, 'base64') AS payload, topic() AS topic, topic(${rule.imeiLevel}) AS imei, ` +
    `timestamp() AS receivedAt FROM '${rule.topicFilter}'`
  );
}

/** What a rule hands its handler, on AWS and in the embedded runtime alike. */
export interface IotRuleEvent {
  /** The message as published, base64. */
  payload: string;
  /** The topic as the rule sees it: without a Basic Ingest prefix (`topic()`). */
  topic: string;
  imei: string;
  /** Epoch milliseconds when the broker received the message. */
  receivedAt: number;
}
