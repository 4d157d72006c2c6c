/**
 * Entry points of the deployed Lambda functions. One function serves one capability
 * (docs/decisions/0002-lambda-per-capability.md), so its entry picks the operation per event:
 * HTTP events by their API Gateway route key, ingest stream records by the topic they came from and
 * scheduled events by the job they name. The CDK stack generates each entry from the manifests;
 * nothing here imports a handler, so this module stays small and free of cloud SDKs.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ruleTopicOf } from '../../shared/mqtt-topics';

export type HttpLambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;
/** Handlers of non-HTTP events (IoT rules, schedules): whatever they return is ignored by the caller. */
export type EventLambdaHandler<E = unknown> = (event: E, context: Context) => Promise<unknown>;

const NOT_FOUND: APIGatewayProxyStructuredResultV2 = {
  statusCode: 404,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify({ success: false, message: 'NotFound', errors: 'NotFound' }),
};

/**
 * Dispatches an HTTP API (payload 2.0) event on `event.routeKey` (`GET /api/v1/user/settings`,
 * see `routeKey()` in shared/routes.ts). An unknown key answers 404 in the API's error shape:
 * API Gateway only sends the keys we routed to this function, so that means a stale deployment.
 */
export function createDispatcher(handlers: Readonly<Record<string, HttpLambdaHandler>>): HttpLambdaHandler {
  const table = new Map(Object.entries(handlers));
  return async (event, context) => {
    const handler = table.get(event.routeKey);
    if (!handler) return { ...NOT_FOUND, headers: { ...NOT_FOUND.headers } };
    return handler(event, context);
  };
}

/** MQTT topic filter matching (`+` one level, `#` the rest), as IoT Core matches a rule's FROM clause. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    const part = f[i];
    if (part === '#') return true;
    if (i >= t.length) return false;
    if (part !== '+' && part !== t[i]) return false;
  }
  return f.length === t.length;
}

/** A handler that also takes an array of events, in order (functions/ingest/handle-telemetry.ts). */
export type BatchEventHandler<E> = ((events: E[], context: Context) => Promise<unknown>) & { readonly acceptsBatches: true };

const takesBatches = <E>(handler: EventLambdaHandler<E> | BatchEventHandler<E>): handler is BatchEventHandler<E> =>
  (handler as Partial<BatchEventHandler<E>>).acceptsBatches === true;

/**
 * Dispatches a batch of the ingest stream (shared/ingest-stream.ts: Kinesis records whose data is
 * the IoT rule's output) to the handlers of the rules whose topic filters match: a handler that
 * takes arrays gets all of its records at once, in stream order, the others one by one in order.
 * Any failure fails the batch, which the event source mapping (or the embedded stream) retries;
 * every handler is idempotent. A record no rule matches throws: it ends among the dead letters.
 */
export function createStreamDispatcher<E extends { topic: string }>(
  routes: ReadonlyArray<{ readonly topicFilter: string; readonly handler: EventLambdaHandler<E> | BatchEventHandler<E> }>,
): EventLambdaHandler<{ Records: ReadonlyArray<{ kinesis: { data: string } }> }> {
  return async (event, context) => {
    // By handler: the telemetry handler serves two rules and gets their records together.
    const groups = new Map<(typeof routes)[number]['handler'], E[]>();
    for (const record of event.Records) {
      const item = JSON.parse(Buffer.from(record.kinesis.data, 'base64').toString('utf8')) as E;
      // The rule's topic: should IoT Core hand `topic()` of a Basic Ingest message with its prefix, the route is the same.
      const topic = ruleTopicOf(item.topic);
      const route = routes.find((r) => topicMatches(r.topicFilter, topic));
      if (!route) throw new Error(`No ingest handler for topic ${JSON.stringify(item.topic)}`);
      const group = groups.get(route.handler);
      if (group) group.push(item);
      else groups.set(route.handler, [item]);
    }
    await Promise.all(
      [...groups].map(async ([handler, items]) => {
        if (takesBatches(handler)) return handler(items, context);
        for (const item of items) await handler(item, context);
      }),
    );
  };
}

/**
 * Dispatches a scheduled event (`{ "job": name }`, the input the stack gives each schedule) to the
 * job's handler. A miss throws so that the failure is visible in the function's metrics.
 */
export function createJobDispatcher<E extends { job: string }>(
  handlers: Readonly<Record<string, EventLambdaHandler<E>>>,
): EventLambdaHandler<E> {
  const table = new Map(Object.entries(handlers));
  return async (event, context) => {
    const handler = table.get(event.job);
    if (!handler) throw new Error(`No job handler for ${JSON.stringify(event.job)}`);
    return handler(event, context);
  };
}
