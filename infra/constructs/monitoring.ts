/**
 * What an operator must act on, and where to look: CloudWatch alarms that all notify one SNS topic
 * (its e-mail subscribers come from the context value `alarmEmails`), and one dashboard. Each
 * alarm and what to do about it is described in docs/operations.md ("Alarms and the dashboard");
 * the keys of `ALARMS` below are the names used there and in the alarms' names
 * (`<stack name>-<key>`).
 *
 * The alarms of a function (errors, throttles) are created beside the function, in whichever
 * stack holds it (`functionAlarms`), so that a capability group's nested stack carries its own
 * and needs only the topic from the parent. The others, the topic and the dashboard are in the
 * top-level stack. The metrics `DeadLettersWritten` and `AlertDeliveryFailed` are emitted by the
 * code (functions/platform/metrics.ts); the web vitals by the browser's vitals endpoint.
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { PortalHttpApi } from './http-api';
import { acknowledge } from './nag';
import type { PortalFunction } from './portal-function';

/** The namespace of the metrics our code emits (functions/platform/metrics.ts). */
export const OPS_NAMESPACE = 'TrackingPortal';
/** The browser's web vitals (p75 over all routes), emitted by the vitals endpoint. */
export const WEB_VITALS_NAMESPACE = 'TrackingPortal/WebVitals';
export const WEB_VITALS = [
  { name: 'LCP', unit: 'ms' },
  { name: 'INP', unit: 'ms' },
  { name: 'CLS', unit: '' },
  { name: 'TTFB', unit: 'ms' },
] as const;

/** Thresholds, kept here so that docs/operations.md and the tests read the same numbers. */
export const ALARM_THRESHOLDS = {
  /** Milliseconds the ingest function's oldest record waited, for 5 minutes in a row. */
  ingestIteratorAgeMs: 60_000,
  /** HTTP API answers that were 5xx, percent of at least `api5xxMinRequests` in 5 minutes. */
  api5xxPercent: 5,
  api5xxMinRequests: 20,
  /** SES account reputation: AWS reviews an account at 5 % bounces and 0.1 % complaints. */
  sesBounceRate: 0.05,
  sesComplaintRate: 0.001,
} as const;

const FIVE_MINUTES = Duration.minutes(5);

export const API_ROUTE_LATENCY_TITLE = 'API latency per route (ms, from the access log)';
/**
 * The dashboard's per-route latency, a Logs Insights query over the HTTP API's access log
 * (infra/constructs/http-api.ts writes `routeKey` and `latencyMs`, the latter as a JSON number:
 * Insights' numeric functions such as pct() take numbers).
 */
export const API_ROUTE_LATENCY_QUERY = [
  'fields routeKey, latencyMs',
  'filter ispresent(latencyMs)',
  'stats count(*) as requests, pct(latencyMs, 50) as p50, pct(latencyMs, 90) as p90, pct(latencyMs, 99) as p99 by routeKey',
  'sort p90 desc',
  'limit 200',
] as const;

export const WEB_VITALS_ROUTE_TITLE = 'Web vitals per route (p75, from the vitals log)';
/**
 * The dashboard's web vitals per route: a Logs Insights query over the vitals function's log group,
 * whose EMF lines carry each route as a property (functions/vitals/emf.ts), instead of a metric
 * series per route and vital (billed as custom metrics).
 */
export const WEB_VITALS_ROUTE_QUERY = [
  'fields Route, LCP, INP, CLS, TTFB',
  'filter ispresent(Route)',
  'stats count(*) as lines, pct(LCP, 75) as LCP_p75, pct(INP, 75) as INP_p75, pct(CLS, 75) as CLS_p75, pct(TTFB, 75) as TTFB_p75 by Route',
  'sort lines desc',
  'limit 200',
] as const;

/** A dashboard table of a Logs Insights query, run over the dashboard's time range when it is shown. */
function logQueryTable(title: string, logGroupName: string, lines: readonly string[]): cloudwatch.LogQueryWidget {
  return new cloudwatch.LogQueryWidget({ title, logGroupNames: [logGroupName], queryLines: [...lines], view: cloudwatch.LogQueryVisualizationType.TABLE, width: 24, height: 8 });
}

export interface MonitoringProps {
  /** The top-level stack's name: the alarms' and the dashboard's names start with it. */
  readonly stackName: string;
  readonly alarmEmails: readonly string[];
  readonly smsSpendAlarmUsd: number;
}

export interface IngestMonitoring {
  readonly function: lambda.IFunction;
  readonly stream: kinesis.IStream;
  readonly failureQueue: sqs.IQueue;
}

export interface MonitoredResources {
  readonly api: PortalHttpApi;
  readonly ingest?: IngestMonitoring;
  readonly liveAuthorizer: lambda.IFunction;
  /** The stack's dead-letter queue (jobs, schedules, unrecordable ingest failures). */
  readonly deadLetterQueue: sqs.IQueue;
  /** Each work queue's dead-letter queue, by queue name. */
  readonly workQueueDeadLetters: ReadonlyMap<string, sqs.IQueue>;
  /** Whether the HTTP API publishes per-route metrics (the dashboard's per-route p90 graph; the access log's table is there either way). */
  readonly routeMetrics: boolean;
  /** The web vitals function's log group: the dashboard's vitals per route are a query of it. */
  readonly vitalsLogGroup?: logs.ILogGroup;
}

export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  /** Every alarm, by its key (`lambda-errors-<function>`, `ingest-iterator-age`...). */
  readonly alarms = new Map<string, cloudwatch.Alarm>();
  dashboard?: cloudwatch.Dashboard;
  private readonly stackName: string;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, private readonly props: MonitoringProps) {
    super(scope, id);
    this.stackName = props.stackName;
    this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: `${props.stackName} alarms`, enforceSSL: true });
    for (const address of props.alarmEmails) this.topic.addSubscription(new subscriptions.EmailSubscription(address));
    this.action = new SnsAction(this.topic);
    acknowledge(this.topic, [
      [
        'AwsSolutions-SNS2',
        'The alarm topic carries only alarm state changes (names, thresholds), no customer data. CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a customer managed key for it would only add a key policy to keep right.',
      ],
    ]);
  }

  /** An alarm in `scope` (a nested stack's construct as well) that notifies the topic. */
  alarm(scope: Construct, key: string, props: cloudwatch.AlarmProps): cloudwatch.Alarm {
    if (this.alarms.has(key)) throw new Error(`alarm ${key} is defined twice`);
    const alarm = new cloudwatch.Alarm(scope, `Alarm-${key}`, {
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      ...props,
      alarmName: `${this.stackName}-${key}`,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.set(key, alarm);
    return alarm;
  }

  /** An alarm that goes off on any occurrence within the metric's period. */
  private onAny(scope: Construct, key: string, metric: cloudwatch.IMetric, alarmDescription: string): cloudwatch.Alarm {
    return this.alarm(scope, key, { metric, threshold: 1, evaluationPeriods: 1, alarmDescription });
  }

  /** Errors and throttles of one function, beside it (in its stack). */
  functionAlarms(name: string, fn: PortalFunction): void {
    const f = fn.function;
    this.onAny(fn, `lambda-errors-${name}`, f.metricErrors({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }), `Lambda function ${name} failed (an invocation threw or timed out) in the last 5 minutes. docs/operations.md: Alarms and the dashboard.`);
    this.onAny(fn, `lambda-throttles-${name}`, f.metricThrottles({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }), `Lambda refused invocations of ${name} (concurrency limit) in the last 5 minutes. docs/operations.md: Alarms and the dashboard.`);
  }

  /** The alarms that are not a function's, and the dashboard; once every function exists. */
  watch(resources: MonitoredResources): void {
    const opsMetric = (metricName: string) => new cloudwatch.Metric({ namespace: OPS_NAMESPACE, metricName, period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM });
    const { ingest, api } = resources;

    if (ingest) {
      this.alarm(this, 'ingest-iterator-age', {
        metric: ingest.function.metric('IteratorAge', { period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM }),
        threshold: ALARM_THRESHOLDS.ingestIteratorAgeMs,
        evaluationPeriods: 5,
        alarmDescription: 'Tracker messages wait more than a minute on the ingest stream before the ingest function reads them (5 minutes in a row).',
      });
      this.onAny(
        this,
        'ingest-failed-batches',
        ingest.failureQueue.metric('NumberOfMessagesSent', { period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
        'The ingest function gave up on a batch after its retries, or an IoT rule could not put a message on the stream.',
      );
    }
    this.onAny(this, 'dead-letters-written', opsMetric('DeadLettersWritten').with({ period: Duration.minutes(15) }), 'Tracker messages were written to the dead-letters table (rejected, failed or not put on the stream) in the last 15 minutes.');
    this.onAny(this, 'dead-letter-queue-depth', resources.deadLetterQueue.metric('ApproximateNumberOfMessagesVisible', { period: FIVE_MINUTES, statistic: cloudwatch.Stats.MAXIMUM }), "Messages wait in the stack's dead-letter queue: failed job runs or schedules, or ingest failures that could not be recorded.");
    for (const [queue, dlq] of resources.workQueueDeadLetters) {
      this.onAny(this, `queue-dead-letters-${queue}`, dlq.metric('ApproximateNumberOfMessagesVisible', { period: FIVE_MINUTES, statistic: cloudwatch.Stats.MAXIMUM }), `Messages of the ${queue} work queue used up their retries and wait in its dead-letter queue.`);
    }
    this.onAny(this, 'alert-delivery-failed', opsMetric('AlertDeliveryFailed'), 'An alarm could not be sent to a receiver (e-mail, SMS or push) in the last 5 minutes; the queue retries it.');
    this.alarm(this, 'api-5xx-rate', {
      metric: new cloudwatch.MathExpression({
        expression: `IF(requests >= ${ALARM_THRESHOLDS.api5xxMinRequests}, 100 * errors / requests, 0)`,
        usingMetrics: {
          errors: api.api.metricServerError({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
          requests: api.api.metricCount({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
        },
        period: FIVE_MINUTES,
        label: 'API 5xx %',
      }),
      threshold: ALARM_THRESHOLDS.api5xxPercent,
      evaluationPeriods: 1,
      alarmDescription: `More than ${ALARM_THRESHOLDS.api5xxPercent} % of the HTTP API's answers were 5xx in the last 5 minutes.`,
    });
    this.alarm(this, 'ses-bounce-rate', {
      metric: new cloudwatch.Metric({ namespace: 'AWS/SES', metricName: 'Reputation.BounceRate', period: Duration.hours(1), statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: ALARM_THRESHOLDS.sesBounceRate,
      evaluationPeriods: 1,
      alarmDescription: "The SES account's bounce rate reached 5 %: AWS reviews the account there and may pause sending at 10 %.",
    });
    this.alarm(this, 'ses-complaint-rate', {
      metric: new cloudwatch.Metric({ namespace: 'AWS/SES', metricName: 'Reputation.ComplaintRate', period: Duration.hours(1), statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: ALARM_THRESHOLDS.sesComplaintRate,
      evaluationPeriods: 1,
      alarmDescription: "The SES account's complaint rate reached 0.1 %: AWS reviews the account there and may pause sending at 0.5 %.",
    });
    this.alarm(this, 'sms-spend', {
      metric: new cloudwatch.Metric({ namespace: 'AWS/SNS', metricName: 'SMSMonthToDateSpentUSD', period: Duration.hours(1), statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: this.props.smsSpendAlarmUsd,
      evaluationPeriods: 1,
      alarmDescription: `This month's SMS spend reached USD ${this.props.smsSpendAlarmUsd} (context value smsSpendAlarmUsd).`,
    });

    this.dashboard = this.buildDashboard(resources);
  }

  private buildDashboard(resources: MonitoredResources): cloudwatch.Dashboard {
    const { ingest, api, liveAuthorizer } = resources;
    const minute = Duration.minutes(1);
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: this.stackName,
      defaultInterval: Duration.hours(3),
    });
    const search = (expression: string, label: string) => new cloudwatch.MathExpression({ expression, usingMetrics: {}, label, period: FIVE_MINUTES });
    const region = Stack.of(this).region;

    if (ingest) {
      dashboard.addWidgets(
        new cloudwatch.TextWidget({ markdown: '## Ingest', width: 24, height: 1 }),
        new cloudwatch.GraphWidget({
          title: 'Ingest rate: records in (per minute)',
          left: [
            ingest.stream.metricIncomingRecords({ period: minute, statistic: cloudwatch.Stats.SUM, label: 'records put on the stream' }),
            ingest.function.metricInvocations({ period: minute, statistic: cloudwatch.Stats.SUM, label: 'ingest batches' }),
          ],
          width: 8,
        }),
        new cloudwatch.GraphWidget({
          title: 'Ingest latency: iterator age (ms)',
          left: [
            ingest.function.metric('IteratorAge', { period: minute, statistic: cloudwatch.Stats.MAXIMUM, label: 'max' }),
            ingest.function.metric('IteratorAge', { period: minute, statistic: cloudwatch.Stats.AVERAGE, label: 'average' }),
          ],
          leftAnnotations: [{ value: ALARM_THRESHOLDS.ingestIteratorAgeMs, label: 'alarm' }],
          width: 8,
        }),
        new cloudwatch.GraphWidget({
          title: 'Ingest function duration (ms)',
          left: [
            ingest.function.metricDuration({ period: minute, statistic: cloudwatch.Stats.p(50), label: 'p50' }),
            ingest.function.metricDuration({ period: minute, statistic: cloudwatch.Stats.p(99), label: 'p99' }),
          ],
          right: [new cloudwatch.Metric({ namespace: OPS_NAMESPACE, metricName: 'DeadLettersWritten', period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM, label: 'dead letters' })],
          width: 8,
        }),
      );
    }

    dashboard.addWidgets(
      new cloudwatch.TextWidget({ markdown: '## Live channel', width: 24, height: 1 }),
      new cloudwatch.GraphWidget({
        title: 'Live channel connects',
        left: [
          liveAuthorizer.metricInvocations({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM, label: 'live authorizer calls (browser connects)' }),
          search(`SEARCH('{AWS/IoT,Protocol} MetricName="Connect.Success"', 'Sum', 300)`, 'IoT Core connects'),
        ],
        right: [liveAuthorizer.metricErrors({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM, label: 'authorizer errors' })],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'Live authorizer duration (ms)',
        left: [liveAuthorizer.metricDuration({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.p(99), label: 'p99' })],
        width: 12,
      }),
    );

    const apiMetric = (fn: 'metricLatency' | 'metricCount' | 'metricServerError' | 'metricClientError', statistic: string, label: string) =>
      api.api[fn]({ period: FIVE_MINUTES, statistic, label });
    const apiWidgets: cloudwatch.IWidget[] = [
      new cloudwatch.GraphWidget({
        title: 'API requests and errors',
        left: [apiMetric('metricCount', cloudwatch.Stats.SUM, 'requests')],
        right: [apiMetric('metricClientError', cloudwatch.Stats.SUM, '4xx'), apiMetric('metricServerError', cloudwatch.Stats.SUM, '5xx')],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'API latency, all routes (ms)',
        left: [apiMetric('metricLatency', cloudwatch.Stats.p(50), 'p50'), apiMetric('metricLatency', cloudwatch.Stats.p(90), 'p90'), apiMetric('metricLatency', cloudwatch.Stats.p(99), 'p99')],
        width: 8,
      }),
    ];
    if (resources.routeMetrics) {
      // Per-route metrics (billed as custom metrics): the p90 of each route over time.
      apiWidgets.push(
        new cloudwatch.GraphWidget({
          title: 'API latency per route, p90 (ms)',
          left: [
            search(
              `SEARCH('{AWS/ApiGateway,ApiId,Method,Resource,Stage} MetricName="Latency" ApiId="${api.api.apiId}"', 'p90', 300)`,
              '',
            ),
          ],
          legendPosition: cloudwatch.LegendPosition.RIGHT,
          width: 8,
        }),
      );
    }
    dashboard.addWidgets(
      new cloudwatch.TextWidget({ markdown: '## API', width: 24, height: 1 }),
      ...apiWidgets,
      // Each route's latency from the stage's access log (no per-route metrics needed): a Logs
      // Insights query over the dashboard's time range, run when the dashboard is shown.
      logQueryTable(API_ROUTE_LATENCY_TITLE, api.accessLogs.logGroupName, API_ROUTE_LATENCY_QUERY),
    );

    dashboard.addWidgets(
      new cloudwatch.TextWidget({ markdown: '## Web vitals (p75, from the browsers)', width: 24, height: 1 }),
      ...WEB_VITALS.map(
        (vital) =>
          new cloudwatch.GraphWidget({
            title: `${vital.name}${vital.unit ? ` (${vital.unit})` : ''}, p75`,
            left: [new cloudwatch.Metric({ namespace: WEB_VITALS_NAMESPACE, metricName: vital.name, period: FIVE_MINUTES, statistic: cloudwatch.Stats.p(75), label: 'all routes' })],
            legendPosition: cloudwatch.LegendPosition.RIGHT,
            width: 12,
          }),
      ),
      ...(resources.vitalsLogGroup
        ? [
            logQueryTable(WEB_VITALS_ROUTE_TITLE, resources.vitalsLogGroup.logGroupName, WEB_VITALS_ROUTE_QUERY),
          ]
        : []),
    );

    // Every alarm by its name (an ARN needs no reference into the nested stacks that hold some).
    const alarms = [...this.alarms.keys()].map((key) =>
      cloudwatch.Alarm.fromAlarmArn(this, `Status-${key}`, Stack.of(this).formatArn({ service: 'cloudwatch', region, resource: 'alarm', resourceName: `${this.stackName}-${key}`, arnFormat: ArnFormat.COLON_RESOURCE_NAME })),
    );
    // An alarm status widget shows at most 100 alarms.
    for (let i = 0; i < alarms.length; i += 100) {
      const part = alarms.slice(i, i + 100);
      dashboard.addWidgets(new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: part, width: 24, height: Math.max(3, Math.ceil(part.length / 4) + 1) }));
    }
    return dashboard;
  }
}
