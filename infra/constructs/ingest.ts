/**
 * The tracker ingest path on AWS (docs/decisions/0003-ingest-path.md): IoT Core topic rules from
 * shared/iot-rules.ts put their output on a Kinesis data stream, keyed by the IMEI, and the
 * `ingest` function reads it in batches through an enhanced fan-out consumer, with the settings of
 * shared/ingest-stream.ts that the embedded stream (infra/local/stream.ts) uses too. Every rule has
 * an error action to the dead-letter queue; batches the function gives up on (after the retries,
 * bisected) go to the same queue as the mapping's on-failure destination.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as iot from 'aws-cdk-lib/aws-iot';
import * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { KinesisConsumerEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { INGEST_STREAM, INGEST_STREAM_SHARDS, type IngestStreamSettings } from '../../shared/ingest-stream';
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
  readonly settings?: IngestStreamSettings;
  readonly shards?: number;
}

export class IngestRules extends Construct {
  readonly rules: iot.CfnTopicRule[] = [];
  readonly stream: kinesis.Stream;
  readonly consumer: kinesis.StreamConsumer;

  constructor(scope: Construct, id: string, props: IngestRulesProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const settings = props.settings ?? INGEST_STREAM;

    this.stream = new kinesis.Stream(this, 'Stream', {
      streamMode: kinesis.StreamMode.PROVISIONED,
      shardCount: props.shards ?? INGEST_STREAM_SHARDS,
      retentionPeriod: Duration.hours(24),
      encryption: kinesis.StreamEncryption.MANAGED,
    });
    // Enhanced fan-out: records pushed to the function within ~70 ms, not polled once a second.
    this.consumer = new kinesis.StreamConsumer(this, 'Consumer', { stream: this.stream, streamConsumerName: `${stackName}-ingest` });

    const putRole = new iam.Role(this, 'RuleRole', {
      assumedBy: new iam.ServicePrincipal('iot.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } } }),
      description: 'IoT topic rules: put tracker messages on the ingest stream',
    });
    putRole.addToPolicy(new iam.PolicyStatement({ actions: ['kinesis:PutRecord'], resources: [this.stream.streamArn] }));

    for (const def of props.rules) {
      const rule = new iot.CfnTopicRule(this, def.name, {
        ruleName: iotRuleName(stackName, def),
        topicRulePayload: {
          description: def.description,
          sql: iotRuleSql(def),
          awsIotSqlVersion: '2016-03-23',
          ruleDisabled: false,
          // Keyed by the IMEI: one unit's messages stay in order and in one batch at a time.
          actions: [{ kinesis: { streamName: this.stream.streamName, partitionKey: `\${topic(${def.imeiLevel})}`, roleArn: putRole.roleArn } }],
          errorAction: {
            sqs: { queueUrl: props.deadLetterQueue.queueUrl, roleArn: props.errorRole.roleArn, useBase64: false },
          },
        },
      });
      rule.node.addDependency(putRole);
      this.rules.push(rule);
    }

    props.function.addEventSource(
      new KinesisConsumerEventSource(this.consumer, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: settings.batchSize,
        maxBatchingWindow: Duration.millis(settings.batchingWindowMs),
        parallelizationFactor: settings.parallelizationFactor,
        retryAttempts: settings.retryAttempts,
        bisectBatchOnError: settings.bisectOnError,
        maxRecordAge: Duration.seconds(settings.maxRecordAgeSeconds),
        onFailure: new SqsDlq(props.deadLetterQueue),
      }),
    );
  }
}
