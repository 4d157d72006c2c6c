/**
 * The HTTP API: every deployed route of shared/routes.ts, each integrated (payload 2.0) with its
 * capability's function. Authentication happens in the handlers (bearer token, route access level),
 * so the routes have no API Gateway authorizer. The API and its stage are in the top-level stack;
 * the routes, integrations and invoke permissions are built in the nested stack of their
 * capability's group (`addRoutes`' scope, infra/capability-groups.ts).
 */
import { Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDef } from '../../shared/routes';
import { acknowledge, type Acknowledgement } from './nag';

/** Stage-wide defaults; per-user limits (login, 2FA, e-mail lookups) are enforced in the handlers. */
export const API_THROTTLE = { rateLimit: 200, burstLimit: 400 } as const;

/** Why the routes have no API Gateway authorizer (cdk-nag), on the API and on every route. */
const API_AUTHORIZATION: readonly Acknowledgement[] = [
  [
    'AwsSolutions-APIG4',
    'Authorization is done in the handlers: the shared middy middleware verifies the bearer token and the route access level (public/member/admin/support) from shared/routes.ts. Public routes (login, registration) must stay open, and one code path serves AWS and the embedded runtime.',
  ],
  [
    'AwsSolutions-COG4',
    'Same as APIG4: tokens are verified by our middleware (the Cognito access token plus our session record, so logout revokes at once), not by a Cognito authorizer.',
  ],
];

/**
 * One JSON object per request in the stage's access log. Each value is a JSON string, except
 * those of `ACCESS_LOG_NUMBERS`: Logs Insights discovers the fields of a JSON log event and its
 * numeric functions take numbers, so the dashboard's latency per route (pct() of `latencyMs` by
 * `routeKey`, infra/constructs/monitoring.ts) needs the latency unquoted. The integration latency
 * stays a string: it is `-` for a request that reached no integration (no route, throttled).
 */
export const ACCESS_LOG_STRINGS = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  routeKey: '$context.routeKey',
  status: '$context.status',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
} as const;
export const ACCESS_LOG_NUMBERS = { latencyMs: '$context.responseLatency' } as const;

export function accessLogFormat(): string {
  const fields = [
    ...Object.entries(ACCESS_LOG_STRINGS).map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`),
    ...Object.entries(ACCESS_LOG_NUMBERS).map(([name, value]) => `${JSON.stringify(name)}:${value}`),
  ];
  return `{${fields.join(',')}}`;
}

export class PortalHttpApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly accessLogs: logs.LogGroup;
  /** `xxxx.execute-api.<region>.amazonaws.com`, the CloudFront origin. */
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: { readonly routeMetrics: boolean }) {
    super(scope, id);
    this.api = new apigwv2.HttpApi(this, 'Api', {
      apiName: Stack.of(this).stackName,
      description: 'Tracking portal API (reached through CloudFront at /api/*)',
      createDefaultStage: false,
    });
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.THREE_MONTHS });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
      // Per-route metrics (the dashboard's p90 graph per route); billed as custom metrics.
      detailedMetricsEnabled: props.routeMetrics,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(accessLogFormat()),
      },
    });
    this.domainName = `${this.api.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;

    acknowledge(this, API_AUTHORIZATION);
  }

  get url(): string {
    return this.stage.url;
  }

  /**
   * Routes each manifest route to the function serving its capability, building the routes, the
   * integrations and the invoke permissions in `scope` (a capability group's nested stack).
   */
  addRoutes(scope: Construct, routes: readonly RouteDef[], functionFor: (route: RouteDef) => lambda.IFunction): void {
    // One integration and one invoke permission per function, shared by its routes: the
    // per-route permissions CDK would add otherwise cost a resource each (500-resource limit).
    const integrations = new Map<lambda.IFunction, HttpLambdaIntegration>();
    for (const route of routes) {
      const fn = functionFor(route);
      let integration = integrations.get(fn);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${route.capability}-integration`, fn, {
          payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
          scopePermissionToRoute: false,
        });
        integrations.set(fn, integration);
      }
      const httpRoute = new apigwv2.HttpRoute(scope, `Route-${route.operationId}`, {
        httpApi: this.api,
        routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
        integration,
      });
      acknowledge(httpRoute, API_AUTHORIZATION);
    }
  }
}
