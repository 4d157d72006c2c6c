/**
 * The trackers' IoT policy and the embedded broker's checks (trackerMayPublish and
 * trackerMaySubscribe of shared/mqtt-topics.ts, which infra/local/broker.ts calls) allow the same
 * topics: both are made from `trackerTopicGrants`.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, inject, it } from 'vitest';
import { EMBEDDED_STACK_NAME, iotRules, trackerBasicIngestTopics } from '../../shared/iot-rules';
import { stackNameFor } from '../config';
import {
  LIVE_PUBLISH_TOPIC_PATTERNS,
  trackerMayPublish,
  trackerMaySubscribe,
  trackerTopicGrants,
  trackerTopicTemplates,
  trackerTopicWith,
} from '../../shared/mqtt-topics';
import { iotRuleName } from './ingest';
import { THING, TrackerPolicy } from './tracker-policy';

const IMEI = '356938035643809';
// An App without an outdir makes one in the system's temporary folder; this one goes with the run's.
const outdir = mkdtempSync(join(inject('scratchRoot'), 'tracker-policy-'));
const OTHER = '490154203237518';

interface Statement {
  Action: string;
  Resource: unknown;
}

function policyOf(rules = iotRules): { stackName: string; statements: Statement[] } {
  const stack = new Stack(new App({ outdir }), 'PolicyTest', { env: { account: '123456789012', region: 'eu-north-1' } });
  const policy = new TrackerPolicy(stack, 'TrackerPolicy', { policyName: 'tracker', rules });
  const document = stack.resolve(policy.policy.policyDocument) as { Statement: Statement[] };
  return { stackName: stack.stackName, statements: document.Statement };
}

/** The topic or topic filter names of the policy's resources for `action`, the thing variable as `thing`. */
function granted(statements: Statement[], action: string, thing: string): string[] {
  const text = (value: unknown): string => {
    if (typeof value === 'string') return value;
    const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    return join ? join[1].map(text).join(join[0]) : '';
  };
  return statements
    .filter((s) => s.Action === action)
    .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))
    .map((r) => text(r).replace(/^arn:.*?:(topic|topicfilter)\//, '').replaceAll(THING, thing));
}

/** Every topic a tracker might try: each tracker topic for itself and another IMEI, wildcards, live topics. */
const candidates = [
  ...Object.values(trackerTopicTemplates).flatMap((t) => [t.replace('{imei}', IMEI), t.replace('{imei}', OTHER), t.replace('{imei}', '+')]),
  ...LIVE_PUBLISH_TOPIC_PATTERNS.map((p) => p.replaceAll('*', IMEI)),
  `trackers/${IMEI}/other`,
  `trackers/${IMEI}/#`,
];

describe('the tracker policy and the embedded broker', () => {
  const { stackName, statements } = policyOf();
  const basicIngest = (topic: string) => topic.startsWith('$aws/rules/');

  it('allow a tracker to publish to the same topics', () => {
    const policy = granted(statements, 'iot:Publish', IMEI).filter((t) => !basicIngest(t));
    expect(policy.length).toBe(trackerTopicGrants.publish.length);
    for (const topic of candidates) expect(policy.includes(topic), topic).toBe(trackerMayPublish(IMEI, topic));
  });

  it('allow a tracker to subscribe to, and the policy to receive on, the same topics', () => {
    const subscribe = granted(statements, 'iot:Subscribe', IMEI);
    const receive = granted(statements, 'iot:Receive', IMEI);
    expect(subscribe.length).toBe(trackerTopicGrants.subscribe.length);
    for (const topic of candidates) {
      expect(subscribe.includes(topic), topic).toBe(trackerMaySubscribe(IMEI, topic));
      expect(receive.includes(topic), topic).toBe(trackerMaySubscribe(IMEI, topic));
    }
  });

  it('name the embedded rules as the production stack names its own, so one tracker configuration fits both', () => {
    expect(EMBEDDED_STACK_NAME).toBe(stackNameFor('prod'));
    expect(Object.values(trackerBasicIngestTopics(EMBEDDED_STACK_NAME, IMEI)).sort()).toEqual(
      iotRules.map((rule) => `$aws/rules/${iotRuleName(stackNameFor('prod'), rule)}/${trackerTopicWith(rule.topic, IMEI)}`).sort(),
    );
  });

  it('open Basic Ingest for each IoT rule on a granted topic, and for nothing else', () => {
    const ingest = granted(statements, 'iot:Publish', IMEI).filter(basicIngest);
    expect(iotRules.every((rule) => trackerMayPublish(IMEI, trackerTopicWith(rule.topic, IMEI)))).toBe(true);
    expect(ingest.sort()).toEqual(iotRules.map((rule) => `$aws/rules/${iotRuleName(stackName, rule)}/${trackerTopicWith(rule.topic, IMEI)}`).sort());
    // A rule on a topic trackers may not publish to gets no Basic Ingest grant.
    const commandsRule = { ...iotRules[0]!, name: 'commandsRule', topic: 'nativeCommands' } as const;
    const withCommands = policyOf([...iotRules, commandsRule]);
    expect(granted(withCommands.statements, 'iot:Publish', IMEI).filter(basicIngest)).toHaveLength(iotRules.length);
  });
});
