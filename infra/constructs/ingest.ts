/**
 * The tracker ingest path (docs/decisions/0003-ingest-path.md): IoT Core topic rules from
 * shared/iot-rules.ts invoke the `ingest` function directly. Every rule has an error action to
 * the dead-letter queue, and the function's failed asynchronous invocations end there too.
 */
import { Aws, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as iot from 'aws-cdk-lib/aws-iot';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { iotRuleSql, type IotRuleDef } from '../../shared/iot-rules';

/** IoT rule names allow letters, digits and underscores only; the stack name keeps stages apart. */
export function iotRuleName(stackName: string, rule: Pick<IotRuleDef, 'name'>): string {
  return `${stackName.replace(/[^A-Za-z0-9_]/g, '_')}_${rule.name}`;
}

export interface IngestRulesProps {
  readonly rules: readonly IotRuleDef[];
  readonly function: lambda.IFunction;
  readonly deadLetterQueue: sqs.IQueue;
  /** Role IoT assumes for the error action; built by the stack whether or not rules exist. */
  readonly errorRole: iam.IRole;
}

export class IngestRules extends Construct {
  readonly rules: iot.CfnTopicRule[] = [];

  constructor(scope: Construct, id: string, props: IngestRulesProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    for (const def of props.rules) {
      const rule = new iot.CfnTopicRule(this, def.name, {
        ruleName: iotRuleName(stackName, def),
        topicRulePayload: {
          description: def.description,
          sql: iotRuleSql(def),
          awsIotSqlVersion: '2016-03-23',
          ruleDisabled: false,
          actions: [{ lambda: { functionArn: props.function.functionArn } }],
          errorAction: {
            sqs: { queueUrl: props.deadLetterQueue.queueUrl, roleArn: props.errorRole.roleArn, useBase64: false },
          },
        },
      });
      props.function.addPermission(`Invoke-${def.name}`, {
        principal: new iam.ServicePrincipal('iot.amazonaws.com'),
        sourceArn: rule.attrArn,
        sourceAccount: Aws.ACCOUNT_ID,
      });
      this.rules.push(rule);
    }
  }
}
