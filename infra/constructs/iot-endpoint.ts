/**
 * The account's IoT data endpoint (iot:Data-ATS), looked up at deploy time so synth stays offline
 * and the stack needs no per-account context. Context `iotDataEndpoint` skips the lookup.
 */
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledgeFindings } from './nag';

export class IotDataEndpoint extends Construct {
  readonly address: string;

  constructor(scope: Construct, id: string, props: { readonly override?: string } = {}) {
    super(scope, id);
    if (props.override) {
      this.address = props.override;
      return;
    }
    const call: cr.AwsSdkCall = {
      service: 'Iot',
      action: 'describeEndpoint',
      parameters: { endpointType: 'iot:Data-ATS' },
      physicalResourceId: cr.PhysicalResourceId.of('iot-data-ats-endpoint'),
      outputPaths: ['endpointAddress'],
    };
    const lookup = new cr.AwsCustomResource(this, 'Lookup', {
      onCreate: call,
      onUpdate: call,
      // iot:DescribeEndpoint has no resource type; "*" is the only resource it accepts.
      policy: cr.AwsCustomResourcePolicy.fromSdkCalls({ resources: cr.AwsCustomResourcePolicy.ANY_RESOURCE }),
      installLatestAwsSdk: false,
      logGroup: new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_WEEK }),
    });
    this.address = lookup.getResponseField('endpointAddress');
    acknowledgeFindings(lookup, [
      {
        rule: 'AwsSolutions-IAM5',
        finding: /^Resource::\*$/,
        reason: 'iot:DescribeEndpoint supports no resource-level permissions (IAM service authorization reference), so Resource must be "*".',
      },
    ]);
  }
}
