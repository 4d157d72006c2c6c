/**
 * What the operators get (infra/constructs/monitoring.ts, docs/operations.md "Alarms and the
 * dashboard"): each alarm with its metric and threshold, all notifying the one alarm topic whose
 * subscribers come from the context value `alarmEmails`; the dashboard's widgets (the latency
 * per route from the access log, the per-route metrics only with `apiRouteMetrics`); the ingest
 * stream on demand.
 */
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS_NAMESPACE } from '../../functions/platform/metrics';
import { ALARM_THRESHOLDS, API_ROUTE_LATENCY_QUERY, API_ROUTE_LATENCY_TITLE, OPS_NAMESPACE, WEB_VITALS, WEB_VITALS_NAMESPACE, WEB_VITALS_ROUTE_QUERY, WEB_VITALS_ROUTE_TITLE } from '../../infra/constructs/monitoring';
import { LIVE_AUTHORIZER } from '../../shared/capability-resources';
import { queueList } from '../../shared/queues';
import type { TrackingPortalStack } from '../../infra/stack';
import { FULL_STACK, STACK_NAME, synth } from './helpers';

// Synthesized CloudFormation is untyped JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let stack: TrackingPortalStack;
let template: Template;
let resources: Record<string, Json>;

beforeAll(() => {
  ({ stack, template } = synth());
  resources = (template.toJSON() as { Resources: Record<string, Json> }).Resources;
});

const id = (s: TrackingPortalStack, construct: { node: { defaultChild?: unknown } }) => Stack.of(construct as never).getLogicalId(construct.node.defaultChild as never);
const ref = (logicalId: string) => ({ Ref: logicalId });
const alarmsOf = (json: Record<string, Json>) => Object.values(json).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
const alarmNamed = (json: Record<string, Json>, key: string) => {
  const found = alarmsOf(json).filter((a) => a.Properties.AlarmName === `${STACK_NAME}-${key}`);
  expect(found, key).toHaveLength(1);
  return found[0].Properties;
};

describe('the ingest stream', () => {
  it('scales itself: on demand, no shard count', () => {
    template.hasResourceProperties('AWS::Kinesis::Stream', { StreamModeDetails: { StreamMode: 'ON_DEMAND' } });
    const [stream] = Object.values(template.findResources('AWS::Kinesis::Stream')) as Json[];
    expect(stream.Properties.ShardCount).toBeUndefined();
  });
});

describe('alarms', () => {
  const functionNames = () => [...stack.functions.keys(), LIVE_AUTHORIZER];
  const expectedKeys = () => [
    ...functionNames().flatMap((n) => [`lambda-errors-${n}`, `lambda-throttles-${n}`]),
    'ingest-iterator-age',
    'ingest-failed-batches',
    'dead-letters-written',
    'dead-letter-queue-depth',
    ...queueList.map((q) => `queue-dead-letters-${q.name}`),
    'alert-delivery-failed',
    'api-5xx-rate',
    'ses-bounce-rate',
    'ses-complaint-rate',
    'sms-spend',
  ];

  it('are exactly the documented ones, each notifying the alarm topic when it goes off and when it clears', () => {
    const names = alarmsOf(resources).map((a) => a.Properties.AlarmName as string);
    expect(names.sort()).toEqual(expectedKeys().map((k) => `${STACK_NAME}-${k}`).sort());
    const topic = ref(id(stack, stack.monitoring.topic));
    for (const alarm of alarmsOf(resources)) {
      expect(alarm.Properties.AlarmActions, alarm.Properties.AlarmName).toEqual([topic]);
      expect(alarm.Properties.OKActions, alarm.Properties.AlarmName).toEqual([topic]);
      expect(alarm.Properties.AlarmDescription).toBeTruthy();
    }
  });

  it("watch each function's errors and throttles, beside the function in its own stack", () => {
    for (const name of functionNames()) {
      const fn = name === LIVE_AUTHORIZER ? stack.liveAuthorizer.function : stack.functions.get(name)!;
      for (const [key, metric] of [['errors', 'Errors'], ['throttles', 'Throttles']] as const) {
        const alarm = alarmNamed(resources, `lambda-${key}-${name}`);
        expect(alarm).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: metric, Statistic: 'Sum', Period: 300, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
        expect(alarm.Dimensions).toEqual([{ Name: 'FunctionName', Value: ref(id(stack, fn.function)) }]);
        expect(Stack.of(stack.monitoring.alarms.get(`lambda-${key}-${name}`)!)).toBe(Stack.of(fn));
      }
    }
  });

  it('watch the ingest path: iterator age, failed batches, dead letters written, the dead-letter queues', () => {
    const ingest = stack.functions.get('ingest')!;
    expect(alarmNamed(resources, 'ingest-iterator-age')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 5,
      Threshold: ALARM_THRESHOLDS.ingestIteratorAgeMs,
      Dimensions: [{ Name: 'FunctionName', Value: ref(id(stack, ingest.function)) }],
    });
    expect(alarmNamed(resources, 'ingest-failed-batches')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'NumberOfMessagesSent',
      Threshold: 1,
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id(stack, stack.ingestRules!.failureQueue), 'QueueName'] } }],
    });
    expect(OPS_NAMESPACE).toBe(METRICS_NAMESPACE);
    expect(alarmNamed(resources, 'dead-letters-written')).toMatchObject({ Namespace: 'TrackingPortal', MetricName: 'DeadLettersWritten', Statistic: 'Sum', Threshold: 1 });
    expect(alarmNamed(resources, 'dead-letters-written').Dimensions).toBeUndefined();
    expect(alarmNamed(resources, 'dead-letter-queue-depth')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 1,
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id(stack, stack.deadLetterQueue), 'QueueName'] } }],
    });
    for (const q of queueList) {
      const dlq = stack.workQueues.queues.get(q.name)!.deadLetterQueue;
      expect(alarmNamed(resources, `queue-dead-letters-${q.name}`)).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id(stack, dlq), 'QueueName'] } }],
      });
    }
  });

  it('watch alert delivery, the API 5xx rate, SES reputation and SMS spend', () => {
    expect(alarmNamed(resources, 'alert-delivery-failed')).toMatchObject({ Namespace: 'TrackingPortal', MetricName: 'AlertDeliveryFailed', Statistic: 'Sum', Threshold: 1 });
    const api5xx = alarmNamed(resources, 'api-5xx-rate');
    expect(api5xx.Threshold).toBe(ALARM_THRESHOLDS.api5xxPercent);
    const metrics = api5xx.Metrics as Json[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe(`IF(requests >= ${ALARM_THRESHOLDS.api5xxMinRequests}, 100 * errors / requests, 0)`);
    const apiId = ref(Stack.of(stack).getLogicalId(stack.node.findChild('PortalApi').node.findChild('Api').node.defaultChild as never));
    for (const [idName, metricName] of [['errors', '5xx'], ['requests', 'Count']]) {
      expect(metrics.find((m) => m.Id === idName)?.MetricStat).toMatchObject({
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: metricName, Dimensions: [{ Name: 'ApiId', Value: apiId }] },
        Stat: 'Sum',
        Period: 300,
      });
    }
    expect(alarmNamed(resources, 'ses-bounce-rate')).toMatchObject({ Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate', Threshold: 0.05 });
    expect(alarmNamed(resources, 'ses-complaint-rate')).toMatchObject({ Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate', Threshold: 0.001 });
    expect(alarmNamed(resources, 'sms-spend')).toMatchObject({ Namespace: 'AWS/SNS', MetricName: 'SMSMonthToDateSpentUSD', Statistic: 'Maximum', Threshold: 100 });
  });

  it('e-mail the addresses of the context value alarmEmails, with the SMS threshold of smsSpendAlarmUsd', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    const full = synth(FULL_STACK);
    const json = (full.template.toJSON() as { Resources: Record<string, Json> }).Resources;
    const topic = ref(id(full.stack, full.stack.monitoring.topic));
    const subscriptions = Object.values(json).filter((r) => r.Type === 'AWS::SNS::Subscription').map((r) => r.Properties);
    expect(subscriptions).toEqual([
      { Protocol: 'email', Endpoint: 'ops@example.se', TopicArn: topic },
      { Protocol: 'email', Endpoint: 'oncall@example.no', TopicArn: topic },
    ]);
    expect(alarmNamed(json, 'sms-spend').Threshold).toBe(250);
    // Only TLS publishers (cdk-nag SNS3).
    full.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: [{ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }] },
    });
  });
});

/** The dashboard body of a template with its deploy-time references written as `<LogicalId>`, parsed. */
function dashboardWidgets(t: Template): Json[] {
  const [dashboard] = Object.values(t.findResources('AWS::CloudWatch::Dashboard')) as Json[];
  expect(dashboard.Properties.DashboardName).toBe(STACK_NAME);
  const parts = dashboard.Properties.DashboardBody['Fn::Join'][1] as Json[];
  const body = parts.map((p) => (typeof p === 'string' ? p : `<${p.Ref ?? p['Fn::GetAtt']?.join('.') ?? 'expr'}>`)).join('');
  return (JSON.parse(body) as { widgets: Json[] }).widgets;
}

describe('the dashboard', () => {
  let widgets: Json[];
  beforeAll(() => {
    widgets = dashboardWidgets(template);
  });

  const titled = (title: string, among: Json[] = widgets) => {
    const found = among.find((w) => w.properties.title === title);
    expect(found, title).toBeDefined();
    return found.properties;
  };
  const fnId = (name: string) => `<${id(stack, stack.functions.get(name)!.function)}>`;

  it('shows the ingest rate and latency: records in, iterator age, the function duration', () => {
    expect(titled('Ingest rate: records in (per minute)').metrics).toEqual([
      ['AWS/Kinesis', 'IncomingRecords', 'StreamName', `<${id(stack, stack.ingestRules!.stream)}>`, expect.objectContaining({ stat: 'Sum', period: 60 })],
      ['AWS/Lambda', 'Invocations', 'FunctionName', fnId('ingest'), expect.objectContaining({ stat: 'Sum' })],
    ]);
    expect(titled('Ingest latency: iterator age (ms)').metrics).toEqual([
      ['AWS/Lambda', 'IteratorAge', 'FunctionName', fnId('ingest'), expect.objectContaining({ stat: 'Maximum' })],
      // Average is the widget's default statistic, which CloudWatch leaves out.
      ['AWS/Lambda', 'IteratorAge', 'FunctionName', fnId('ingest'), expect.objectContaining({ label: 'average' })],
    ]);
    expect(titled('Ingest function duration (ms)').metrics).toEqual(
      expect.arrayContaining([['AWS/Lambda', 'Duration', 'FunctionName', fnId('ingest'), expect.objectContaining({ stat: 'p99' })]]),
    );
  });

  it('shows the live channel connects: the live authorizer calls and IoT Core connects', () => {
    const live = `<${id(stack, stack.liveAuthorizer.function.function)}>`;
    const metrics = titled('Live channel connects').metrics as Json[];
    expect(metrics).toContainEqual(['AWS/Lambda', 'Invocations', 'FunctionName', live, expect.objectContaining({ stat: 'Sum' })]);
    expect(metrics).toContainEqual([expect.objectContaining({ expression: `SEARCH('{AWS/IoT,Protocol} MetricName="Connect.Success"', 'Sum', 300)` })]);
  });

  const accessLogs = () => Stack.of(stack).getLogicalId(stack.node.findChild('PortalApi').node.findChild('AccessLogs').node.defaultChild as never);

  it("shows the API latency overall, and per route from the stage's access log without per-route metrics (billed as custom metrics)", () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { DefaultRouteSettings: { DetailedMetricsEnabled: false } });
    expect(titled('API latency, all routes (ms)').metrics).toHaveLength(3);
    expect(widgets.some((w) => w.properties.title === 'API latency per route, p90 (ms)')).toBe(false);
    const perRoute = widgets.find((w) => w.properties.title === API_ROUTE_LATENCY_TITLE);
    expect(perRoute.type).toBe('log');
    expect(perRoute.properties.view).toBe('table');
    expect(perRoute.properties.query).toBe(`SOURCE '<${accessLogs()}>' | ${API_ROUTE_LATENCY_QUERY.join('\n| ')}`);
    expect(perRoute.properties.query).toMatch(/stats count\(\*\) as requests, pct\(latencyMs, 50\) as p50, pct\(latencyMs, 90\) as p90, pct\(latencyMs, 99\) as p99 by routeKey/);
  });

  it('reads a JSON number of the access log as the latency, and a route key', () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as Json[];
    const { DestinationArn, Format } = stage.Properties.AccessLogSettings;
    expect(DestinationArn).toEqual({ 'Fn::GetAtt': [accessLogs(), 'Arn'] });
    // A request as API Gateway writes it: each $context variable replaced by its value.
    const line = (Format as string).replace('$context.responseLatency', '87').replace('$context.routeKey', 'GET /api/v1/user/units').replace(/\$context\.[A-Za-z.]+/g, '-');
    expect(JSON.parse(line)).toMatchObject({ routeKey: 'GET /api/v1/user/units', latencyMs: 87, status: '-', integrationLatencyMs: '-' });
  });

  it('keeps the per-route latency metrics and their p90 graph when the context value apiRouteMetrics is true', () => {
    const full = synth(FULL_STACK);
    full.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { DefaultRouteSettings: { DetailedMetricsEnabled: true } });
    const fullWidgets = dashboardWidgets(full.template);
    const perRoute = titled('API latency per route, p90 (ms)', fullWidgets).metrics as Json[];
    expect(perRoute[0][0].expression).toMatch(/^SEARCH\('\{AWS\/ApiGateway,ApiId,Method,Resource,Stage\} MetricName="Latency" ApiId="<PortalApi[A-Za-z0-9]+>"', 'p90', 300\)$/);
    expect(titled(API_ROUTE_LATENCY_TITLE, fullWidgets).query).toMatch(/^SOURCE '<PortalApiAccessLogs[A-Za-z0-9]+>' \| fields routeKey, latencyMs/);
  });

  it('shows the web vitals at p75 over all routes from the metrics, and per route from the vitals log (no series per route)', () => {
    for (const vital of WEB_VITALS) {
      const widget = titled(`${vital.name}${vital.unit ? ` (${vital.unit})` : ''}, p75`);
      expect(widget.metrics).toEqual([[WEB_VITALS_NAMESPACE, vital.name, expect.objectContaining({ stat: 'p75', label: 'all routes' })]]);
    }
    expect(WEB_VITALS.map((v) => v.name)).toEqual(['LCP', 'INP', 'CLS', 'TTFB']);
    expect(JSON.stringify(widgets)).not.toContain('Route}');
    const perRoute = widgets.find((w) => w.properties.title === WEB_VITALS_ROUTE_TITLE);
    expect(perRoute.type).toBe('log');
    expect(perRoute.properties.view).toBe('table');
    // The vitals function's own log group (by reference, from its capability group's nested stack).
    const source = /^SOURCE '<([^>]+)>' \| /.exec(perRoute.properties.query as string)?.[1];
    expect(source).toMatch(/vitals.*Logs/i);
    expect(perRoute.properties.query).toBe(`SOURCE '<${source}>' | ${WEB_VITALS_ROUTE_QUERY.join('\n| ')}`);
    expect(perRoute.properties.query).toMatch(/pct\(LCP, 75\) as LCP_p75.* by Route/);
  });

  it('lists every alarm by its ARN', () => {
    const status = widgets.find((w) => w.type === 'alarm');
    expect(status.properties.alarms).toHaveLength(stack.monitoring.alarms.size);
    for (const key of stack.monitoring.alarms.keys()) {
      expect(status.properties.alarms).toContainEqual(expect.stringMatching(new RegExp(`:alarm:${STACK_NAME}-${key}$`)));
    }
  });
});
