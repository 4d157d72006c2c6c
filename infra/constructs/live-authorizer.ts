/**
 * The IoT Core custom authorizer of the browsers' live channel: browsers connect over MQTT over
 * WebSocket with their access token as the MQTT password, and functions/live/authorize.ts answers
 * with a policy for the caller's own topics. Signing is disabled: the credential is our JWT in the
 * MQTT password, which the function verifies itself (IoT Core's token signing is for tokens a
 * device presents in headers or the query string).
 *
 * Its function follows the portal-function pattern (own role, log group, tracing) but gets only
 * what it needs: GetItem on the users and tokens tables (resolveAuth); no shared access policy.
 * Infra names the handler file only; the stack bundles it with the other functions.
 */
import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as iot from 'aws-cdk-lib/aws-iot';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { BundleRequest } from '../bundling/bundle';
import { PortalFunction } from './portal-function';

export const LIVE_AUTHORIZER_HANDLER = 'functions/live/authorize.ts';
/** Bundle (and function) name. */
export const LIVE_AUTHORIZER_FUNCTION = 'live-authorizer';
/** IoT Core gives a custom authorizer at most 5 seconds. */
export const LIVE_AUTHORIZER_TIMEOUT_SECONDS = 5;

/** What the stack adds to its `bundleAll` requests. */
export function liveAuthorizerBundle(): BundleRequest {
  return {
    name: LIVE_AUTHORIZER_FUNCTION,
    entry: `export { handler } from ${JSON.stringify(`./${LIVE_AUTHORIZER_HANDLER}`)};\n`,
    handlers: [{ source: LIVE_AUTHORIZER_HANDLER, purpose: 'IoT Core custom authorizer of the live channel' }],
  };
}

/** Authorizer names allow letters, digits and `_=,@-`, as stack names do (plus `-`). */
export function liveAuthorizerName(stackName: string): string {
  return `${stackName.replace(/[^\w=,@-]/g, '_')}-live`;
}

export interface LiveAuthorizerProps {
  readonly authorizerName: string;
  /** Directory holding the bundle's index.mjs (`liveAuthorizerBundle()`). */
  readonly codeDir: string;
  /** The functions' environment (RUNTIME=aws, TABLE_PREFIX, the user pool, ...). */
  readonly environment: Readonly<Record<string, string>>;
  /** The tables resolveAuth reads. */
  readonly users: dynamodb.ITable;
  readonly tokens: dynamodb.ITable;
}

export class LiveAuthorizer extends Construct {
  readonly function: PortalFunction;
  readonly authorizer: iot.CfnAuthorizer;
  readonly authorizerName: string;

  constructor(scope: Construct, id: string, props: LiveAuthorizerProps) {
    super(scope, id);
    this.authorizerName = props.authorizerName;

    const access = new iam.ManagedPolicy(this, 'Access', {
      description: 'Live channel authorizer: reads sessions and users, nothing else',
      statements: [
        new iam.PolicyStatement({
          sid: 'ReadSessionsAndUsers',
          actions: ['dynamodb:GetItem'],
          resources: [props.users.tableArn, props.tokens.tableArn],
        }),
      ],
    });
    this.function = new PortalFunction(this, 'Function', {
      name: LIVE_AUTHORIZER_FUNCTION,
      description: 'IoT Core custom authorizer: checks a browser access token, allows its live topics',
      codeDir: props.codeDir,
      environment: props.environment,
      sharedPolicy: access,
      tables: [],
    });
    // Beyond IoT Core's 5 s wait a slow answer is a refusal anyway; failing sooner frees the instance.
    (this.function.function.node.defaultChild as lambda.CfnFunction).timeout = LIVE_AUTHORIZER_TIMEOUT_SECONDS;

    this.authorizer = new iot.CfnAuthorizer(this, 'Authorizer', {
      authorizerName: props.authorizerName,
      authorizerFunctionArn: this.function.function.functionArn,
      signingDisabled: true,
      status: 'ACTIVE',
    });
    this.function.function.addPermission('InvokeByIotCore', {
      principal: new iam.ServicePrincipal('iot.amazonaws.com'),
      sourceArn: this.authorizer.attrArn,
      sourceAccount: Stack.of(this).account,
    });
  }
}
