/**
 * One Lambda function of the portal (one per capability, docs/decisions/0002): an ES module bundle
 * on nodejs24.x/arm64 with its own role, its own log group and X-Ray tracing (`tracingOf`). The role starts
 * empty (no AWS managed policy): it gets its log group here, and then exactly what its entry in
 * shared/capability-resources.ts declares (`bindResources`, resource-grants.ts). Its memory and
 * timeout come from the same file's `functionSettings` (the defaults unless its entry says
 * otherwise), checked against Lambda's limits and its caller's (`resolveFunctionSettings`).
 */
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { invokerOf, resolveFunctionSettings, type FunctionName, type FunctionSettings } from '../../shared/capability-resources';
import { acknowledgeFindings } from './nag';

/** What every function shares; memory and timeout are per function (`functionSettings`). */
export const FUNCTION_DEFAULTS = {
  runtime: lambda.Runtime.NODEJS_24_X,
  architecture: lambda.Architecture.ARM_64,
  logRetention: logs.RetentionDays.ONE_MONTH,
} as const;

/**
 * X-Ray tracing by how the function is invoked. The functions behind the HTTP API and the live
 * authorizer sample their own requests (active: the first each second and 5 % of the rest): those
 * are the traces an operator reads. Ingest and the stream, queue and schedule consumers pass
 * tracing through: they record a trace only when what invoked them carries a sampled trace header
 * (a queue message an HTTP function sent while traced), never on their own: active tracing there
 * recorded the first invocation each second and 5 % of the rest, traces nobody reads that X-Ray
 * bills one by one (docs/capacity.md).
 */
export function tracingOf(name: FunctionName): lambda.Tracing {
  return invokerOf(name) === 'async' ? lambda.Tracing.PASS_THROUGH : lambda.Tracing.ACTIVE;
}

export interface PortalFunctionProps {
  /** The capability (or `ingest`, `jobs`, `live-authorizer`); part of the function's name. */
  readonly name: FunctionName;
  readonly description: string;
  /** Directory holding index.mjs (see infra/bundling). */
  readonly codeDir: string;
  readonly environment: Readonly<Record<string, string>>;
  /** Failed asynchronous invocations (IoT rules, schedules) land here after the retries. */
  readonly deadLetterQueue?: sqs.IQueue;
  /** Concurrency set aside for (and the most allowed to) this function. */
  readonly reservedConcurrentExecutions?: number;
  /** Memory and timeout; default: the function's entry of `functionSettings` in shared/capability-resources.ts. */
  readonly settings?: FunctionSettings;
}

export class PortalFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  /** The bundle directory (index.mjs and its source map). */
  readonly codeDir: string;
  /** The memory (MB) and timeout (s) it runs with. */
  readonly settings: Required<FunctionSettings>;

  constructor(scope: Construct, id: string, props: PortalFunctionProps) {
    super(scope, id);
    this.codeDir = props.codeDir;
    this.settings = resolveFunctionSettings(props.name, props.settings);

    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: FUNCTION_DEFAULTS.logRetention });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Lambda function ${props.name} of the tracking portal`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new lambda.Function(this, 'Function', {
      description: props.description,
      runtime: FUNCTION_DEFAULTS.runtime,
      architecture: FUNCTION_DEFAULTS.architecture,
      memorySize: this.settings.memorySize,
      timeout: Duration.seconds(this.settings.timeoutSeconds),
      code: lambda.Code.fromAsset(props.codeDir),
      handler: 'index.handler',
      role: this.role,
      logGroup: this.logGroup,
      // The application's lines are JSON already (Powertools Logger, the EMF lines: written past
      // Lambda's console, so unchanged); Lambda's own START, END and REPORT lines of every
      // invocation are left out below WARN: 400 B an invocation, tens of millions of ingest
      // invocations a month (docs/capacity.md). Duration, errors and throttles stay metrics; a
      // function's system log level raised to INFO in the console shows the lines again.
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.WARN,
      tracing: tracingOf(props.name),
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      ...(props.deadLetterQueue ? { deadLetterQueue: props.deadLetterQueue, retryAttempts: 2 } : {}),
      ...(props.reservedConcurrentExecutions !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions } : {}),
    });

    acknowledgeFindings(this.role, [
      {
        rule: 'AwsSolutions-IAM5',
        finding: /^Resource::\*$/,
        reason:
          'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions, so tracing needs Resource "*" (CDK adds it for Tracing.ACTIVE and PASS_THROUGH: a pass-through function still writes the segments of a sampled upstream request). The only other "*" a portal role can get is sns:Publish for SMS, acknowledged where bindResources grants it.',
      },
    ]);
  }
}
