/**
 * The IoT policy every tracker's certificate gets (`npm run provision -- --stack ...` attaches it).
 * A tracker is a thing named by its IMEI; it connects with that name as client id and may touch
 * only its own topics, the ones the local broker allows it too (both from shared/mqtt-topics.ts):
 * publish where the IoT rules listen (shared/iot-rules.ts), directly or through Basic Ingest
 * (docs/decisions/0003-ingest-path.md), and receive its commands.
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iot from 'aws-cdk-lib/aws-iot';
import { Construct } from 'constructs';
import type { IotRuleDef } from '../../shared/iot-rules';
import { TRACKER_SUBSCRIBES, trackerTopicWith } from '../../shared/mqtt-topics';
import { iotRuleName } from './ingest';

/** The IoT policy variable holding the connecting thing's name (its IMEI). */
export const THING = '${iot:Connection.Thing.ThingName}';

/** The topic a rule listens on, for the connecting thing only. */
export const thingTopic = (rule: Pick<IotRuleDef, 'topic'>): string => trackerTopicWith(rule.topic, THING);

/** Where commands reach a tracker: native and Teltonika (shared/mqtt-topics.ts). */
export const COMMAND_TOPICS: readonly string[] = TRACKER_SUBSCRIBES.map((name) => trackerTopicWith(name, THING));

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
    const publish = props.rules.flatMap((rule) => {
      const topic = thingTopic(rule);
      return [topic, `$aws/rules/${iotRuleName(stack.stackName, rule)}/${topic}`];
    });

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
