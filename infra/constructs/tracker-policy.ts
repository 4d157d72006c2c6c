/**
 * The IoT policy every tracker's certificate gets (`npm run provision -- --stack ...` attaches it).
 * A tracker is a thing named by its IMEI; it connects with that name as client id and may touch
 * only its own topics, the ones the local broker allows it too (both from `trackerTopicGrants` of
 * shared/mqtt-topics.ts): publish its records and answers, those an IoT rule listens on
 * (shared/iot-rules.ts) also through Basic Ingest (docs/decisions/0003-ingest-path.md), and
 * receive its commands.
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iot from 'aws-cdk-lib/aws-iot';
import { Construct } from 'constructs';
import type { IotRuleDef } from '../../shared/iot-rules';
import { trackerGrantedTopics, trackerTopicWith } from '../../shared/mqtt-topics';
import { iotRuleName } from './ingest';

/** The IoT policy variable holding the connecting thing's name (its IMEI). */
export const THING = '${iot:Connection.Thing.ThingName}';

/** The topic a rule listens on, for the connecting thing only. */
export const thingTopic = (rule: Pick<IotRuleDef, 'topic'>): string => trackerTopicWith(rule.topic, THING);

/** Where a tracker publishes: its records and command answers (shared/mqtt-topics.ts). */
export const PUBLISH_TOPICS: readonly string[] = trackerGrantedTopics('publish', THING);

/** Where commands reach a tracker: native and Teltonika (shared/mqtt-topics.ts). */
export const COMMAND_TOPICS: readonly string[] = trackerGrantedTopics('subscribe', THING);

export interface TrackerPolicyProps {
  readonly policyName: string;
  readonly rules: readonly IotRuleDef[];
}

export class TrackerPolicy extends Construct {
  readonly policy: iot.CfnPolicy;

  constructor(scope: Construct, id: string, props: TrackerPolicyProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const arn = (resource: 'client' | 'topic' | 'topicfilter', name: string) =>
      stack.formatArn({ service: 'iot', resource, resourceName: name, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
    // Basic Ingest reaches a rule directly; only for a rule on a topic the tracker may publish to.
    const basicIngest = props.rules
      .filter((rule) => PUBLISH_TOPICS.includes(thingTopic(rule)))
      .map((rule) => `$aws/rules/${iotRuleName(stack.stackName, rule)}/${thingTopic(rule)}`);
    const publish = [...PUBLISH_TOPICS, ...basicIngest];

    this.policy = new iot.CfnPolicy(this, 'Policy', {
      policyName: props.policyName,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Sid: 'ConnectAsOwnThing',
            Effect: 'Allow',
            Action: 'iot:Connect',
            Resource: arn('client', THING),
            // The thing-name variable is set only when the certificate is attached to a thing.
            Condition: { Bool: { 'iot:Connection.Thing.IsAttached': 'true' } },
          },
          { Sid: 'PublishOwnTopics', Effect: 'Allow', Action: 'iot:Publish', Resource: [...new Set(publish)].map((t) => arn('topic', t)) },
          { Sid: 'SubscribeOwnCommands', Effect: 'Allow', Action: 'iot:Subscribe', Resource: COMMAND_TOPICS.map((t) => arn('topicfilter', t)) },
          { Sid: 'ReceiveOwnCommands', Effect: 'Allow', Action: 'iot:Receive', Resource: COMMAND_TOPICS.map((t) => arn('topic', t)) },
        ],
      },
    });
  }
}
