/**
 * The IoT Core custom authorizer of the browsers' live channel: browsers connect over MQTT over
 * WebSocket with their access token as the MQTT password, and functions/live/authorize.ts answers
 * with a policy for the caller's own topics. Signing is disabled: the credential is our JWT in the
 * MQTT password, which the function verifies itself (IoT Core's token signing is for tokens a
 * device presents in headers or the query string).
 *
 * Its function follows the portal-function pattern (own role, log group, tracing); the stack binds
 * its grants from shared/capability-resources.ts like every other function's (reads of users and
 * tokens for resolveAuth). Its concurrency is reserved: a flood of connects (every browser tab,
 * again every refresh interval) then has the surplus refused, and the browsers' MQTT clients
 * reconnect, instead of taking the account's concurrency from the API or growing without bound.
 * Its timeout is IoT Core's 5 s wait (its entry of `functionSettings`, shared/capability-resources.ts,
 * where a longer one fails the synth). Infra names the handler file only; the stack bundles it
 * with the other functions.
 */
import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as iot from 'aws-cdk-lib/aws-iot';
import { Construct } from 'constructs';
import { LIVE_AUTHORIZER, type FunctionSettings } from '../../shared/capability-resources';
import type { BundleRequest } from '../bundling/bundle';
import { PortalFunction } from './portal-function';

export const LIVE_AUTHORIZER_HANDLER = 'functions/live/authorize.ts';
/** Bundle (and function) name. */
export const LIVE_AUTHORIZER_FUNCTION = LIVE_AUTHORIZER;
/**
 * An answer takes tens of milliseconds, so 20 instances authorize hundreds of connects a second:
 * far above what the portal's browsers ask (one per tab, then one per refresh interval), far
 * below the account's default concurrency of 1000. An account whose concurrency quota is still
 * at 10 (some new accounts) cannot reserve any and must raise the quota first.
 */
export const LIVE_AUTHORIZER_RESERVED_CONCURRENCY = 20;

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
  /** The functions' environment (RUNTIME=aws, the user pool, ...); the stack adds the tables when it binds the grants. */
  readonly environment: Readonly<Record<string, string>>;
  /** Memory and timeout; default: its entry of `functionSettings` (shared/capability-resources.ts). */
  readonly settings?: FunctionSettings;
}

export class LiveAuthorizer extends Construct {
  readonly function: PortalFunction;
  readonly authorizer: iot.CfnAuthorizer;
  readonly authorizerName: string;

  constructor(scope: Construct, id: string, props: LiveAuthorizerProps) {
    super(scope, id);
    this.authorizerName = props.authorizerName;

    this.function = new PortalFunction(this, 'Function', {
      name: LIVE_AUTHORIZER_FUNCTION,
      description: 'IoT Core custom authorizer: checks a browser access token, allows its live topics',
      codeDir: props.codeDir,
      environment: props.environment,
      reservedConcurrentExecutions: LIVE_AUTHORIZER_RESERVED_CONCURRENCY,
      ...(props.settings ? { settings: props.settings } : {}),
    });

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
