/**
 * What `npm run provision -- --stack <name>` relies on in the stack: the outputs it reads and the
 * IoT policy it attaches to every tracker's certificate, which must confine a tracker to its own
 * client id and topics.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { iotRuleName } from '../../infra/constructs/ingest';
import type { TrackingPortalStack } from '../../infra/stack';
import { iotRules } from '../../shared/iot-rules';
import { STACK_NAME, REGION, asArray, synth } from './helpers';

const ACCOUNT = '123456789012';
const IMEI = '356938035643809';
const OTHER = '490154203237518';

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

let stack: TrackingPortalStack;
let template: Template;
let statements: Statement[];

/** A synthesized value as a string, with the pseudo parameters of one account filled in. */
function resolve(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as { 'Fn::Join'?: [string, unknown[]]; Ref?: string };
  if (v['Fn::Join']) return v['Fn::Join'][1].map(resolve).join(v['Fn::Join'][0]);
  const pseudo: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::AccountId': ACCOUNT, 'AWS::Region': REGION };
  if (v.Ref && pseudo[v.Ref]) return pseudo[v.Ref]!;
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
}

/** Whether the policy allows `action` on `resource` for a connection of thing `thing`. */
function allows(thing: string, action: string, resource: string): boolean {
  return statements.some(
    (s) =>
      s.Effect === 'Allow' &&
      asArray(s.Action).includes(action) &&
      asArray(s.Resource).some((r) => resolve(r).replaceAll('${iot:Connection.Thing.ThingName}', thing) === resource),
  );
}

const arn = (kind: 'client' | 'topic' | 'topicfilter', name: string) => `arn:aws:iot:${REGION}:${ACCOUNT}:${kind}/${name}`;

beforeAll(() => {
  ({ stack, template } = synth());
  const policies = Object.values(template.findResources('AWS::IoT::Policy')) as {
    Properties: { PolicyName: string; PolicyDocument: { Statement: Statement[] } };
  }[];
  expect(policies).toHaveLength(1);
  expect(policies[0]!.Properties.PolicyName).toBe(`${STACK_NAME}-tracker`);
  statements = policies[0]!.Properties.PolicyDocument.Statement;
});

describe('outputs for npm run provision', () => {
  it('names the inventory table, the tracker policy and the IoT data endpoint', () => {
    const inventory = stack.getLogicalId(stack.tables.byName.get('inventory')!.node.defaultChild as never);
    const policy = stack.getLogicalId(stack.trackerPolicy.policy);
    template.hasOutput('InventoryTable', { Value: { Ref: inventory } });
    template.hasOutput('TrackerPolicyName', { Value: { Ref: policy } });
    expect(Object.keys(template.toJSON()['Outputs'])).toContain('IotDataEndpoint');
  });
});

describe('the tracker IoT policy', () => {
  it('lets a tracker connect only as its own thing, with a certificate attached to it', () => {
    expect(allows(IMEI, 'iot:Connect', arn('client', IMEI))).toBe(true);
    expect(allows(IMEI, 'iot:Connect', arn('client', OTHER))).toBe(false);
    const connect = statements.filter((s) => asArray(s.Action).includes('iot:Connect'));
    expect(connect).toHaveLength(1);
    expect(connect[0]!.Condition).toEqual({ Bool: { 'iot:Connection.Thing.IsAttached': 'true' } });
  });

  it('lets it publish where the IoT rules listen, for its own IMEI only, also through Basic Ingest', () => {
    for (const topic of [`trackers/${IMEI}/telemetry`, `trackers/${IMEI}/ack`, `${IMEI}/data`]) {
      expect(allows(IMEI, 'iot:Publish', arn('topic', topic)), topic).toBe(true);
      expect(allows(OTHER, 'iot:Publish', arn('topic', topic)), `${OTHER} on ${topic}`).toBe(false);
    }
    for (const rule of iotRules) {
      const topic = rule.topicFilter.replace('+', IMEI);
      expect(allows(IMEI, 'iot:Publish', arn('topic', `$aws/rules/${iotRuleName(STACK_NAME, rule)}/${topic}`)), rule.name).toBe(true);
    }
    for (const topic of [`trackers/${IMEI}/commands`, `${IMEI}/commands`, `live/acc-1/units/${IMEI}`, `trackers/${IMEI}/other`]) {
      expect(allows(IMEI, 'iot:Publish', arn('topic', topic)), topic).toBe(false);
    }
  });

  it('lets it subscribe to and receive its own commands, native and Teltonika, and nothing else', () => {
    for (const topic of [`trackers/${IMEI}/commands`, `${IMEI}/commands`]) {
      expect(allows(IMEI, 'iot:Subscribe', arn('topicfilter', topic)), topic).toBe(true);
      expect(allows(IMEI, 'iot:Receive', arn('topic', topic)), topic).toBe(true);
      expect(allows(OTHER, 'iot:Subscribe', arn('topicfilter', topic)), topic).toBe(false);
      expect(allows(OTHER, 'iot:Receive', arn('topic', topic)), topic).toBe(false);
    }
    expect(allows(IMEI, 'iot:Subscribe', arn('topicfilter', `live/acc-1/units/${IMEI}`))).toBe(false);
    expect(allows(IMEI, 'iot:Subscribe', arn('topicfilter', `trackers/${IMEI}/telemetry`))).toBe(false);
  });

  it('grants only those four actions, and no resource with a wildcard', () => {
    expect(new Set(statements.flatMap((s) => asArray(s.Action)))).toEqual(new Set(['iot:Connect', 'iot:Publish', 'iot:Subscribe', 'iot:Receive']));
    for (const s of statements) {
      expect(s.Effect).toBe('Allow');
      for (const r of asArray(s.Resource)) expect(resolve(r)).not.toMatch(/[*?]/);
    }
  });
});
