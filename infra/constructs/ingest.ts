/**
 * The tracker ingest path on AWS (docs/decisions/0003-ingest-path.md): IoT Core topic rules from
 * shared/iot-rules.ts put their output on a Kinesis data stream, keyed by the IMEI, and the
 * `ingest` function reads it in batches through an enhanced fan-out consumer, with the settings of
 * shared/ingest-stream.ts that the embedded stream (infra/local/stream.ts) uses too. The stream is
 * on demand: Kinesis adds shards as the traffic grows (and the mapping a batch lane per shard
 * times the parallelization factor), so nobody has to scale it.
 *
 * Failures go to the ingest failure queue: every rule's error action (the message could not be put
 * on the stream) and the mapping's on-failure record of a batch the function gave up on (after the
 * retries, bisected). The `ingest-failures` function turns each into dead letters in the
 * dead-letters table (functions/ingest/record-failures.ts), reading a failed batch's records back
 * from the stream, so that operators find every ingest failure in one place and one shape, as in
 * the embedded runtime. What that function cannot record moves on to the stack's dead-letter queue.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as iot from 'aws-cdk-lib/aws-iot';
import * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { KinesisConsumerEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { INGEST_STREAM, type IngestStreamSettings } from '../../shared/ingest-stream';
import { iotRuleName, iotRuleSql, type IotRuleDef } from '../../shared/iot-rules';
import { INGEST_FAILURES } from '../../shared/capability-resources';
import type { BundleRequest } from '../bundling/bundle';
import type { PortalFunction } from './portal-function';

export const INGEST_FAILURES_HANDLER = 'functions/ingest/record-failures.ts';

/** What the stack adds to its `bundleAll` requests when it deploys ingest. */
export function ingestFailuresBundle(): BundleRequest {
  return {
    name: INGEST_FAILURES,
    entry: `export { handler } from ${JSON.stringify(`./${INGEST_FAILURES_HANDLER}`)};\n`,
    handlers: [{ source: INGEST_FAILURES_HANDLER, purpose: 'the ingest failure queue into dead letters' }],
  };
}

/** The rules' names (shared/iot-rules.ts): the trackers' Basic Ingest topics hold them. */
export { iotRuleName };

export interface IngestRulesProps {
  readonly rules: readonly IotRuleDef[];
  readonly function: lambda.IFunction;
  /** Reads the failure queue into the dead-letters table (functions/ingest/record-failures.ts). */
  readonly failuresFunction: PortalFunction;
  /** Where the failure queue's messages go when the failures function cannot record them. */
  readonly deadLetterQueue: sqs.IQueue;
  readonly settings?: IngestStreamSettings;
}

export class IngestRules extends Construct {
  readonly rules: iot.CfnTopicRule[] = [];
  readonly stream: kinesis.Stream;
  readonly consumer: kinesis.StreamConsumer;
  readonly failureQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: IngestRulesProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const settings = props.settings ?? INGEST_STREAM;

    this.stream = new kinesis.Stream(this, 'Stream', {
      // On demand: shards follow the write rate (from 4 MB/s, 4,000 records/s, up to twice the
      // previous peak within 15 minutes), docs/decisions/0003-ingest-path.md.
      streamMode: kinesis.StreamMode.ON_DEMAND,
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

    // A failure message is retried a few times, then kept in the stack's dead-letter queue.
    this.failureQueue = new sqs.Queue(this, 'FailureQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      // Six times the consumer's timeout, as Lambda advises for a queue it reads.
      visibilityTimeout: Duration.seconds(6 * props.failuresFunction.settings.timeoutSeconds),
      deadLetterQueue: { queue: props.deadLetterQueue, maxReceiveCount: 5 },
    });
    // IoT Core assumes this role for a rule's error action.
    const errorRole = new iam.Role(this, 'RuleErrorRole', {
      assumedBy: new iam.ServicePrincipal('iot.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } } }),
      description: 'IoT topic rules: error action to the ingest failure queue',
    });
    this.failureQueue.grantSendMessages(errorRole);

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
            sqs: { queueUrl: this.failureQueue.queueUrl, roleArn: errorRole.roleArn, useBase64: false },
          },
        },
      });
      rule.node.addDependency(putRole, errorRole);
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
        onFailure: new SqsDlq(this.failureQueue),
      }),
    );

    // The failures function: one message at a time is enough (failures are rare), each reported on its own.
    props.failuresFunction.function.addEventSource(new SqsEventSource(this.failureQueue, { batchSize: 10, reportBatchItemFailures: true }));
    this.stream.grantRead(props.failuresFunction.function);
  }
}
