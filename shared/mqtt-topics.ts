/**
 * Every MQTT topic, once, for both runtimes (IoT Core on AWS, the aedes broker embedded). From here
 * come the IoT rules' filters (shared/iot-rules.ts), what a tracker may publish and subscribe to
 * (`trackerTopicGrants`: the embedded broker's checks and the trackers' IoT policy,
 * infra/constructs/tracker-policy.ts),
 * the simulator's topics, the command topics, and the live channel's topics and the authorizer's
 * grants (functions/live/live-access.ts).
 *
 * Each part is checked before it goes into a topic: an id carrying `/`, `+` or `#` would address
 * other topics, and a wildcard in a publish topic is a protocol error.
 */
import { IMEI_PATTERN } from './validators/imei';

const TOPIC_PART = /^[^/+#\0]{1,128}$/;

export class TopicError extends Error {
  override name = 'TopicError';
}

function checkImei(imei: string): string {
  if (!IMEI_PATTERN.test(imei)) throw new TopicError(`not an IMEI (15 digits): ${JSON.stringify(imei)}`);
  return imei;
}

function checkPart(what: string, value: string): string {
  if (!TOPIC_PART.test(value)) throw new TopicError(`invalid ${what} for an MQTT topic: ${JSON.stringify(value)}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Trackers

/** A tracker's topics, `{imei}` standing for its IMEI (which is also its MQTT client id / thing name). */
export const trackerTopicTemplates = {
  /** Native JSON records, and Teltonika's JSON where its topic is configured so. */
  telemetry: 'trackers/{imei}/telemetry',
  /** Native command answers. */
  ack: 'trackers/{imei}/ack',
  /** Teltonika's default topic: records and command answers. */
  teltonikaData: '{imei}/data',
  /** Commands to a native tracker. */
  nativeCommands: 'trackers/{imei}/commands',
  /** Commands to a Teltonika FMB/FMC device in its AWS IoT JSON mode. */
  teltonikaCommands: '{imei}/commands',
} as const;
export type TrackerTopicName = keyof typeof trackerTopicTemplates;

/** What a tracker publishes (where the IoT rules listen) and what it subscribes to. */
export const TRACKER_PUBLISHES: readonly TrackerTopicName[] = ['telemetry', 'ack', 'teltonikaData'];
export const TRACKER_SUBSCRIBES: readonly TrackerTopicName[] = ['nativeCommands', 'teltonikaCommands'];

/** The template with `{imei}` replaced by `value` as is: `+` for a rule's filter, a policy variable for the IoT policy. */
export function trackerTopicWith(name: TrackerTopicName, value: string): string {
  return trackerTopicTemplates[name].replace('{imei}', value);
}

/** One tracker's topic. */
export function trackerTopic(name: TrackerTopicName, imei: string): string {
  return trackerTopicWith(name, checkImei(imei));
}

/** The filter over every tracker's topic of this name (an IoT rule's FROM). */
export const trackerTopicFilter = (name: TrackerTopicName): string => trackerTopicWith(name, '+');

/** 1-based level of the IMEI in a tracker topic (IoT SQL's `topic(n)`). */
export function trackerImeiLevel(name: TrackerTopicName): number {
  return trackerTopicTemplates[name].split('/').indexOf('{imei}') + 1;
}

/** Which tracker topic this is and whose, or null when it is none. */
export function parseTrackerTopic(topic: string): { name: TrackerTopicName; imei: string } | null {
  const levels = topic.split('/');
  for (const name of Object.keys(trackerTopicTemplates) as TrackerTopicName[]) {
    const template = trackerTopicTemplates[name].split('/');
    if (template.length !== levels.length) continue;
    let imei: string | undefined;
    const matches = template.every((part, i) => {
      if (part !== '{imei}') return part === levels[i];
      imei = levels[i];
      return IMEI_PATTERN.test(imei ?? '');
    });
    if (matches && imei) return { name, imei };
  }
  return null;
}

/**
 * What a tracker may publish to and subscribe to (and so receive), as topic patterns with `{imei}`
 * for its own IMEI: the one list both the trackers' IoT policy (infra/constructs/tracker-policy.ts,
 * `{imei}` as the thing-name policy variable) and the embedded broker's checks (below, `{imei}` as
 * the client id) are made from.
 */
export const trackerTopicGrants: Readonly<Record<'publish' | 'subscribe', readonly string[]>> = {
  publish: TRACKER_PUBLISHES.map((name) => trackerTopicTemplates[name]),
  subscribe: TRACKER_SUBSCRIBES.map((name) => trackerTopicTemplates[name]),
};

/** The granted topics with `{imei}` replaced by `value` as is (an IMEI, or a policy variable). */
export function trackerGrantedTopics(action: keyof typeof trackerTopicGrants, value: string): string[] {
  return trackerTopicGrants[action].map((pattern) => pattern.replace('{imei}', value));
}

/** A tracker (client id = its IMEI) may publish only to its own upward topics, as granted. */
export function trackerMayPublish(clientId: string, topic: string): boolean {
  return IMEI_PATTERN.test(clientId) && trackerGrantedTopics('publish', clientId).includes(topic);
}

// ---------------------------------------------------------------------------------------------
// Basic Ingest (docs/decisions/0003-ingest-path.md)

/**
 * A tracker publishing to `$aws/rules/<rule name>/<topic>` reaches that IoT rule directly: IoT Core
 * skips its message broker (nobody can subscribe to these topics) and its messaging charge. The
 * rule sees the topic without the prefix: `topic()` and `topic(n)` count from the first level after
 * the rule name (the prefix is not visible to the topic function).
 */
export const BASIC_INGEST_PREFIX = '$aws/rules/';

/** IoT rule names: letters, digits and underscores, at most 128. */
const RULE_NAME = /^[A-Za-z0-9_]{1,128}$/;

/** The Basic Ingest form of `topic` for the rule named `ruleName`. */
export function basicIngestTopic(ruleName: string, topic: string): string {
  if (!RULE_NAME.test(ruleName)) throw new TopicError(`not an IoT rule name: ${JSON.stringify(ruleName)}`);
  return `${BASIC_INGEST_PREFIX}${ruleName}/${topic}`;
}

/**
 * A Basic Ingest topic split into the rule it names and the topic that rule sees, or null when the
 * topic is not one (no prefix, no valid rule name, or nothing after it).
 */
export function parseBasicIngestTopic(topic: string): { ruleName: string; topic: string } | null {
  if (!topic.startsWith(BASIC_INGEST_PREFIX)) return null;
  const rest = topic.slice(BASIC_INGEST_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return null;
  const ruleName = rest.slice(0, slash);
  const inner = rest.slice(slash + 1);
  if (!RULE_NAME.test(ruleName) || !inner) return null;
  return { ruleName, topic: inner };
}

/** The topic a rule sees: a Basic Ingest topic without its prefix, any other as it is. */
export function ruleTopicOf(topic: string): string {
  return parseBasicIngestTopic(topic)?.topic ?? topic;
}

/** A tracker may subscribe only to its own command topics, as written (no wildcards). */
export function trackerMaySubscribe(clientId: string, topicFilter: string): boolean {
  return IMEI_PATTERN.test(clientId) && trackerGrantedTopics('subscribe', clientId).includes(topicFilter);
}

/** Where a command reaches a tracker of this protocol. */
export function commandTopic(protocol: 'native' | 'teltonika', imei: string): string {
  return trackerTopic(protocol === 'native' ? 'nativeCommands' : 'teltonikaCommands', imei);
}

/** Where a tracker of this protocol publishes its records (Teltonika on its default data topic). */
export function telemetryTopic(protocol: 'native' | 'teltonika', imei: string): string {
  return trackerTopic(protocol === 'native' ? 'telemetry' : 'teltonikaData', imei);
}

// ---------------------------------------------------------------------------------------------
// Live channel (browsers)

/** Live positions, events and command states of one unit, for its account's admins. */
export function liveUnitTopic(accountId: string, imei: string): string {
  return `live/${checkPart('account id', accountId)}/units/${checkImei(imei)}`;
}

/** Where an admin's browser subscribes to every unit of its account. */
export function liveAccountFilter(accountId: string): string {
  return `live/${checkPart('account id', accountId)}/units/+`;
}

/**
 * The same messages for one ordinary user, for each unit granted to them: one filter per user
 * however many units they have, so the authorizer's policy stays small (IoT Core takes at most
 * 10 documents of 2,048 characters from a custom authorizer).
 */
export function liveUserTopic(accountId: string, userId: string, imei: string): string {
  return `live/${checkPart('account id', accountId)}/users/${checkPart('user id', userId)}/units/${checkImei(imei)}`;
}

export function liveUserFilter(accountId: string, userId: string): string {
  return `live/${checkPart('account id', accountId)}/users/${checkPart('user id', userId)}/units/+`;
}

/** Who hears about a unit: its account (admins), and the ordinary users it is granted to. */
export interface LiveAudience {
  accountId: string;
  imei: string;
  /** User ids of the ordinary users granted the unit. */
  viewers: readonly string[];
  /**
   * The user who locked the unit's access (functions/units/lock-rules.ts): its messages then go to
   * that user's own topic only, never to the account's admins or the other viewers.
   */
  lockedBy?: string | undefined;
  /**
   * A message for one user alone, on that user's own topic (a change of their access to the unit,
   * functions/administration): nobody else hears it, locked or not.
   */
  onlyTo?: string | undefined;
}

/** The topics a unit's live message goes out on: the account's, and one per viewer; a locked unit's only to its locker; a message for one user only to theirs. */
export function liveTopicsOf(audience: LiveAudience): string[] {
  if (audience.onlyTo !== undefined) return [liveUserTopic(audience.accountId, audience.onlyTo, audience.imei)];
  if (audience.lockedBy !== undefined) return [liveUserTopic(audience.accountId, audience.lockedBy, audience.imei)];
  return [
    liveUnitTopic(audience.accountId, audience.imei),
    ...[...new Set(audience.viewers)].map((userId) => liveUserTopic(audience.accountId, userId, audience.imei)),
  ];
}

/** IoT policy resources for publishing live messages (any account, user and unit). */
export const LIVE_PUBLISH_TOPIC_PATTERNS = ['live/*/units/*', 'live/*/users/*/units/*'] as const;
