/**
 * The synthesized stack against the manifests: every deployed table and route is there, nothing
 * embedded-only is, and the security settings the architecture relies on hold.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../functions/platform/env';
import { ALERT_DELIVERY_FUNCTION, functionResources, INGEST_FAILURES, resolveFunctionSettings } from '../../shared/capability-resources';
import { queueList } from '../../shared/queues';
import { INGEST_STREAM } from '../../shared/ingest-stream';
import { iotRuleSql, iotRules } from '../../shared/iot-rules';
import { handlerPath, routeKey, routeList } from '../../shared/routes';
import { physicalTableName, tableList } from '../../shared/tables';
import { brandRouterCode } from '../../infra/brand-router-code';
import { BundlingError, REPO_ROOT, bundleAll, httpEntry } from '../../infra/bundling/bundle';
import { iotRuleName } from '../../infra/constructs/ingest';
import { jobs } from '../../infra/jobs';
import type { TrackingPortalStack } from '../../infra/stack';
import { FULL_STACK, JOB_FIXTURE, NO_WEB_DIST, STACK_NAME, asArray, flatTemplate, policyStatements, sharedTemplate, synth } from './helpers';

const deployedRoutes = routeList.filter((r) => !r.embeddedOnly);
const embeddedRoutes = routeList.filter((r) => r.embeddedOnly);
const deployedTables = tableList.filter((t) => !t.embeddedOnly);
const capabilities = [...new Set(deployedRoutes.map((r) => r.capability))];
/** Two small files of ours that import nothing at run time, and a value each exports. */
const SMALL_SOURCES: Readonly<Record<string, string>> = { 'shared/brands.ts': 'brands', 'shared/basemap.ts': 'BASEMAP_URL' };

/** Runs Node with `args`; its output once it has exited, whatever its exit code. */
function runNode(args: string[], options: { env: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', () => resolve({ stdout, stderr }));
  });
}
/** HTTP capabilities, plus ingest when there are IoT rules and jobs when there are jobs. */
const functionNames = [...capabilities, ...queueList.map((q) => q.name), ...(iotRules.length ? ['ingest', INGEST_FAILURES] : []), ...(jobs.length ? ['jobs'] : [])];

// Synthesized CloudFormation is untyped JSON; the assertions below check its shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

interface Origin {
  Id: string;
  S3OriginConfig?: { OriginAccessIdentity: string };
  OriginAccessControlId?: unknown;
  CustomOriginConfig?: Record<string, unknown>;
}
interface Behavior {
  PathPattern?: string;
  TargetOriginId: string;
  CachePolicyId: string;
  OriginRequestPolicyId?: string;
  ResponseHeadersPolicyId?: string;
  AllowedMethods: string[];
  ViewerProtocolPolicy: string;
  FunctionAssociations?: unknown;
}
interface DistributionConfig {
  DefaultRootObject: string;
  Origins: Origin[];
  DefaultCacheBehavior: Behavior;
  CacheBehaviors: Behavior[];
  Logging?: unknown;
}

function logicalId(stack: Stack, fn: { function: { node: { defaultChild?: unknown } } }): string {
  return stack.getLogicalId(fn.function.node.defaultChild as CfnFunction);
}

let stack: TrackingPortalStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synth());
});

describe('the stacks synthesized once per run (test/infra/helpers.ts)', () => {
  const options = [{}, FULL_STACK];
  let synthesized: unknown[];
  // Synthesis in a hook, which has the longer time-out.
  beforeAll(() => {
    synthesized = options.map((o) => flatTemplate(synth(o).stack));
  });

  it('are what this process synthesizes from the same options', () => {
    options.forEach((o, i) => expect(synthesized[i]).toEqual(sharedTemplate(o).toJSON()));
  });
});

describe('DynamoDB tables from shared/tables.ts', () => {
  it('deploys exactly the tables that are not embeddedOnly', () => {
    const names = Object.values(template.findResources('AWS::DynamoDB::Table')).map((r) => (r as Resource).Properties['TableName']);
    expect(names.sort()).toEqual(deployedTables.map((t) => physicalTableName(`${STACK_NAME}-`, t)).sort());
    for (const t of tableList.filter((x) => x.embeddedOnly)) expect(names).not.toContain(physicalTableName(`${STACK_NAME}-`, t));
  });

  it.each(deployedTables.map((t) => [t.name, t] as const))('%s: keys, billing mode, PITR, deletion protection, encryption, table class, TTL, GSIs and their projections', (_name, def) => {
    const tables = template.findResources('AWS::DynamoDB::Table', {
      Properties: { TableName: physicalTableName(`${STACK_NAME}-`, def) },
    });
    const [table] = Object.values(tables) as Resource[];
    expect(table).toBeDefined();
    const p = table!.Properties;
    expect(table!.DeletionPolicy).toBe('Retain');
    // PROVISIONED is CloudFormation's default, which CDK leaves unsaid.
    expect(p['BillingMode']).toBe(def.provisioned ? undefined : 'PAY_PER_REQUEST');
    expect(p['PointInTimeRecoverySpecification']).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(p['DeletionProtectionEnabled']).toBe(true);
    expect(p['SSESpecification']).toEqual({ SSEEnabled: true });
    const keys = [{ AttributeName: def.partitionKey.name, KeyType: 'HASH' }];
    if (def.sortKey) keys.push({ AttributeName: def.sortKey.name, KeyType: 'RANGE' });
    expect(p['KeySchema']).toEqual(keys);
    expect(p['TableClass']).toBe(def.infrequentAccess ? 'STANDARD_INFREQUENT_ACCESS' : undefined);
    if (def.ttlAttribute) expect(p['TimeToLiveSpecification']).toEqual({ AttributeName: def.ttlAttribute, Enabled: true });
    else expect(p['TimeToLiveSpecification']).toBeUndefined();
    const gsis = (p['GlobalSecondaryIndexes'] ?? []) as { IndexName: string; Projection: unknown; KeySchema: unknown }[];
    expect(gsis.map((g) => g.IndexName).sort()).toEqual((def.indexes ?? []).map((i) => i.name).sort());
    for (const index of def.indexes ?? []) {
      const gsi = gsis.find((g) => g.IndexName === index.name)!;
      expect(gsi.Projection).toEqual(index.include ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.include] } : { ProjectionType: 'ALL' });
      const gsiKeys = [{ AttributeName: index.partitionKey.name, KeyType: 'HASH' }];
      if (index.sortKey) gsiKeys.push({ AttributeName: index.sortKey.name, KeyType: 'RANGE' });
      expect(gsi.KeySchema).toEqual(gsiKeys);
    }
  });

  it('provisions positions and units, the tables every tracker message writes, and keeps the others on demand', () => {
    expect(deployedTables.filter((t) => t.provisioned).map((t) => t.name).sort()).toEqual(['positions', 'units']);
  });

  it.each(deployedTables.filter((t) => t.provisioned).map((t) => [t.name, t] as const))('%s: auto scaling of the table and every index, reads and writes, to the target utilisation', (_name, def) => {
    const p = def.provisioned!;
    const [[id, table]] = Object.entries(template.findResources('AWS::DynamoDB::Table', { Properties: { TableName: physicalTableName(`${STACK_NAME}-`, def) } })) as [[string, Resource]];
    // The template starts at the minimum; auto scaling moves it (a deployment leaves it be while the template's figures stay).
    expect(table.Properties['ProvisionedThroughput']).toEqual({ ReadCapacityUnits: p.reads.min, WriteCapacityUnits: p.writes.min });
    const rangeOf = (index?: string) => (index ? (p.indexes?.[index] ?? p) : p);
    for (const index of def.indexes ?? []) {
      const gsi = (table.Properties['GlobalSecondaryIndexes'] as { IndexName: string; ProvisionedThroughput: unknown }[]).find((g) => g.IndexName === index.name)!;
      expect(gsi.ProvisionedThroughput).toEqual({ ReadCapacityUnits: rangeOf(index.name).reads.min, WriteCapacityUnits: rangeOf(index.name).writes.min });
    }
    const targets = Object.entries(template.findResources('AWS::ApplicationAutoScaling::ScalableTarget')).filter(([, r]) =>
      JSON.stringify((r as Resource).Properties['ResourceId']).includes(`{"Ref":"${id}"}`),
    ) as [string, Resource][];
    const expected = [undefined, ...(def.indexes ?? []).map((i) => i.name)].flatMap((index) =>
      (['Read', 'Write'] as const).map((kind) => ({
        dimension: `dynamodb:${index ? 'index' : 'table'}:${kind}CapacityUnits`,
        path: index ? `/index/${index}` : '',
        min: rangeOf(index)[kind === 'Read' ? 'reads' : 'writes'].min,
        max: rangeOf(index)[kind === 'Read' ? 'reads' : 'writes'].max,
      })),
    );
    const found = targets.map(([, r]) => {
      const parts = r.Properties['ResourceId']['Fn::Join'][1] as unknown[];
      return { dimension: r.Properties['ScalableDimension'], path: parts.slice(2).join(''), min: r.Properties['MinCapacity'], max: r.Properties['MaxCapacity'] };
    });
    const key = (x: { dimension: string; path: string }) => `${x.dimension}${x.path}`;
    expect([...found].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...expected].sort((a, b) => key(a).localeCompare(key(b))));
    for (const [targetId] of targets) {
      template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
        PolicyType: 'TargetTrackingScaling',
        ScalingTargetId: { Ref: targetId },
        TargetTrackingScalingPolicyConfiguration: Match.objectLike({ TargetValue: p.targetUtilizationPercent }),
      });
    }
  });
});

describe('HTTP API from shared/routes.ts', () => {
  it('has a route for every deployed route and none for embeddedOnly ones', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => (r as Resource).Properties['RouteKey']);
    expect(keys.sort()).toEqual(deployedRoutes.map(routeKey).sort());
    for (const r of embeddedRoutes) expect(keys).not.toContain(routeKey(r));
  });

  it("integrates each route (payload 2.0) with its capability's function and no API Gateway authorizer", () => {
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    for (const route of deployedRoutes) {
      const res = routes.find((r) => r.Properties['RouteKey'] === routeKey(route))!;
      expect(res.Properties['AuthorizationType'] ?? 'NONE').toBe('NONE');
      const target = res.Properties['Target']['Fn::Join'][1][1]['Ref'] as string;
      const integration = integrations[target] as Resource;
      expect(integration.Properties['IntegrationType']).toBe('AWS_PROXY');
      expect(integration.Properties['PayloadFormatVersion']).toBe('2.0');
      const fn = stack.functions.get(route.capability)!;
      expect(integration.Properties['IntegrationUri']).toEqual({ 'Fn::GetAtt': [logicalId(stack, fn), 'Arn'] });
    }
  });

  it('logs access to a log group and throttles the stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });

  it('lets API Gateway invoke each function once, not once per route', () => {
    const perms = Object.values(template.findResources('AWS::Lambda::Permission')) as Resource[];
    const apigw = perms.filter((p) => p.Properties['Principal'] === 'apigateway.amazonaws.com');
    expect(apigw).toHaveLength(capabilities.length);
  });
});

describe('Lambda functions, one per capability', () => {
  it('has one function per capability of the deployed routes', () => {
    expect([...stack.functions.keys()].sort()).toEqual([...functionNames].sort());
    const appFunctions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => (f as Resource).Properties['Environment']?.Variables?.RUNTIME === 'aws',
    );
    // One per capability, alert delivery, ingest and jobs, and the live channel's IoT custom authorizer.
    expect(appFunctions).toHaveLength(functionNames.length + 1);
  });

  it.each(capabilities)('%s: nodejs24.x on arm64, its memory and timeout, active X-Ray tracing, own log group, ES module bundle', (capability) => {
    const fn = stack.functions.get(capability)!;
    const res = template.toJSON()['Resources'][logicalId(stack, fn)] as Resource;
    const p = res.Properties;
    expect(p['Runtime']).toBe('nodejs24.x');
    expect(p['Architectures']).toEqual(['arm64']);
    // shared/capability-resources.ts functionSettings; test/infra/function-settings.test.ts has the rest.
    expect(p['MemorySize']).toBe(resolveFunctionSettings(capability).memorySize);
    expect(p['Timeout']).toBe(resolveFunctionSettings(capability).timeoutSeconds);
    expect(p['TracingConfig']).toEqual({ Mode: 'Active' });
    expect(p['Handler']).toBe('index.handler');
    expect(p['LoggingConfig']['LogGroup']).toEqual({ Ref: stack.getLogicalId(fn.logGroup.node.defaultChild as never) });
    // JSON lines, and none of Lambda's own START, END and REPORT lines of each invocation.
    expect(p['LoggingConfig']).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: 'INFO', SystemLogLevel: 'WARN' });
    expect(fs.existsSync(path.join(fn.codeDir, 'index.mjs'))).toBe(true);
    expect(fs.existsSync(path.join(fn.codeDir, 'index.mjs.map'))).toBe(true);
  });

  it('traces the HTTP API and the live authorizer actively; ingest and the stream, queue and schedule consumers pass tracing through, and may still write their segments', () => {
    const resources = template.toJSON()['Resources'] as Record<string, Resource>;
    const tracing = (fn: { function: { node: { defaultChild?: unknown } } }) => resources[logicalId(stack, fn)]!.Properties['TracingConfig'];
    const passThrough = functionNames.filter((n) => !(capabilities as string[]).includes(n));
    expect(passThrough).toEqual(expect.arrayContaining(['ingest', INGEST_FAILURES, ...queueList.map((q) => q.name)]));
    for (const name of capabilities) expect(tracing(stack.functions.get(name)!), name).toEqual({ Mode: 'Active' });
    expect(tracing(stack.liveAuthorizer.function)).toEqual({ Mode: 'Active' });
    for (const name of passThrough) {
      const fn = stack.functions.get(name)!;
      expect(tracing(fn), name).toEqual({ Mode: 'PassThrough' });
      // A sampled trace header upstream (a message an HTTP function sent while traced) still makes it write segments.
      const role = stack.getLogicalId(fn.role.node.defaultChild as CfnRole);
      const actions = Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties['Roles'] as { Ref?: string }[]).some((ref) => ref.Ref === role))
        .flatMap((r) => (r.Properties['PolicyDocument'].Statement as { Action: string | string[] }[]).flatMap((s) => asArray(s.Action)));
      expect(actions, name).toEqual(expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']));
    }
  });

  it('sets an environment the functions accept (functions/platform/env.ts, RUNTIME=aws)', () => {
    const STAND_INS: Record<string, string> = {
      APP_URL: 'https://d111.cloudfront.net',
      ORIGIN_SECRET: 'x'.repeat(64),
      MAP_STYLE_URL: 'https://maps.geo.eu-north-1.amazonaws.com/v2/styles/Standard/descriptor?key=v1.public.k',
      QUEUE_URLS: JSON.stringify(Object.fromEntries(queueList.map((q) => [q.name, `https://sqs.eu-north-1.amazonaws.com/123456789012/${q.name}`]))),
    };
    for (const fn of stack.functions.values()) {
      const vars = (template.toJSON()['Resources'][logicalId(stack, fn)] as Resource).Properties['Environment'].Variables as Record<string, unknown>;
      expect(vars).toMatchObject({ RUNTIME: 'aws', LOG_LEVEL: 'INFO', POWERTOOLS_SERVICE_NAME: 'tracking-portal' });
      // Table names come one by one with the grants (test/infra/least-privilege.test.ts), never as a prefix.
      expect(vars['TABLE_PREFIX']).toBeUndefined();
      for (const key of ['APP_URL', 'USER_POOL_ID', 'USER_POOL_CLIENT_ID', 'MAIL_FROM', 'IOT_DATA_ENDPOINT', 'TABLES']) expect(vars[key]).toBeDefined();
      // Deploy-time values are CloudFormation expressions here; stand-ins of the right shape.
      const concrete = Object.fromEntries(
        Object.entries(vars).map(([k, v]) => [k, typeof v === 'string' ? v : STAND_INS[k] ?? 'deploy-time']),
      );
      expect(() => parseEnv(concrete)).not.toThrow();
    }
  });

  it('gives the functions the SMS sender of smsSenderId, and none without it', () => {
    const senders = (t: Template) =>
      Object.values(t.findResources('AWS::Lambda::Function'))
        .map((r) => (r as Resource).Properties['Environment']?.Variables as Record<string, unknown> | undefined)
        .filter((vars) => vars?.['RUNTIME'] === 'aws')
        .map((vars) => vars?.['SMS_SENDER_ID']);
    expect(new Set(senders(synth(FULL_STACK).template))).toEqual(new Set(['FleetAlarm']));
    expect(new Set(senders(template))).toEqual(new Set([undefined]));
  });

  // One Node process per capability loads its bundle alone (so each proves it is complete), two
  // at a time; about 20 processes, hence the longer time-out.
  it('bundles a dispatcher that answers every route key of its capability', async () => {
    const check = async (capability: (typeof capabilities)[number]) => {
      const fn = stack.functions.get(capability)!;
      const routes = deployedRoutes.filter((r) => r.capability === capability);
      const guarded = routes.filter((r) => r.access !== 'public').map(routeKey);
      const script = [
        `const m = await import(${JSON.stringify(pathToFileURL(path.join(fn.codeDir, 'index.mjs')).href)});`,
        'const call = (routeKey) => m.handler({ routeKey, rawPath: "/", headers: { "x-origin-verify": process.env.ORIGIN_SECRET }, requestContext: { requestId: "t" } }, {});',
        `const out = { unknown: await call('GET /api/v1/no-such-route'), guarded: [] };`,
        `for (const key of ${JSON.stringify(guarded)}) out.guarded.push((await call(key)).statusCode);`,
        'console.log("RESULT" + JSON.stringify(out));',
      ].join('\n');
      const child = await runNode(['--input-type=module', '-e', script], {
        env: {
          ...process.env,
          RUNTIME: 'aws',
          LOG_LEVEL: 'ERROR',
          AWS_REGION: 'eu-north-1',
          // What the stack sets (the origin secret is checked before anything else), with stand-ins.
          ORIGIN_SECRET: 'o'.repeat(64),
          APP_URL: 'https://d111.cloudfront.net',
          USER_POOL_ID: 'eu-north-1_Abc123',
          USER_POOL_CLIENT_ID: 'client',
          MAIL_FROM: 'no-reply@example.com',
          IOT_DATA_ENDPOINT: 'abc-ats.iot.eu-north-1.amazonaws.com',
        },
      });
      const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT'));
      expect(line, `${capability}: ${child.stderr}`).toBeDefined();
      const out = JSON.parse(line!.slice('RESULT'.length)) as { unknown: { statusCode: number; body: string }; guarded: number[] };
      expect(out.unknown.statusCode).toBe(404);
      expect(JSON.parse(out.unknown.body)).toEqual({ success: false, message: 'NotFound', errors: 'NotFound' });
      // Member and admin routes answer 401 without a token: the route reached its real handler.
      expect(out.guarded).toEqual(guarded.map(() => 401));
      // The embedded adapters are replaced by a stub in Lambda bundles.
      expect(fs.readFileSync(path.join(fn.codeDir, 'index.mjs'), 'utf8')).toContain('not part of Lambda bundles');
    };
    for (let i = 0; i < capabilities.length; i += 2) await Promise.all(capabilities.slice(i, i + 2).map(check));
  }, 120_000);

  it('names a missing handler file when it cannot bundle', () => {
    const ghost = { ...deployedRoutes[0]!, file: 'no-such-handler' };
    expect(() =>
      bundleAll(path.join(NO_WEB_DIST, 'ghost'), [
        { name: 'ghost', entry: httpEntry([ghost]), handlers: [{ source: handlerPath(ghost), purpose: `route ${routeKey(ghost)}` }] },
      ]),
    ).toThrow(BundlingError);
    expect(() =>
      bundleAll(path.join(NO_WEB_DIST, 'ghost'), [
        { name: 'ghost', entry: httpEntry([ghost]), handlers: [{ source: handlerPath(ghost), purpose: 'x' }] },
      ]),
    ).toThrow(new RegExp(handlerPath(ghost)));
  });

  // The two tests below check how bundles are built, staged and shared, not what a function's
  // bundle holds (the shared stacks' bundles are checked above): small entries of one shared file
  // each, which esbuild builds in a fraction of the time a handler's dependencies take.
  const small = (name: string, source: string) => ({ name, entry: `import { ${SMALL_SOURCES[source]} } from './${source}';\nexport const handler = () => ${SMALL_SOURCES[source]};\n`, handlers: [{ source, purpose: 'test' }] });

  it('builds several bundles together and names only the one esbuild cannot build', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bundles-'));
    try {
      const [first, second] = Object.keys(SMALL_SOURCES);
      const good = (name: string, source: string | undefined) => small(name, source!);
      // Its handler file exists (the check before esbuild passes), but it imports a package that does not.
      const broken = { name: 'broken', entry: "import './shared/tables.ts';\nexport { handler } from 'no-such-package';\n", handlers: [{ source: 'shared/tables.ts', purpose: 'test' }] };
      const dirs = bundleAll(root, [good('one', first), good('two', second)]);
      expect(fs.readFileSync(path.join(dirs.get('one')!, 'index.mjs'), 'utf8')).not.toBe(fs.readFileSync(path.join(dirs.get('two')!, 'index.mjs'), 'utf8'));
      expect(fs.existsSync(path.join(dirs.get('two')!, 'index.mjs.map'))).toBe(true);
      expect(fs.readFileSync(`${dirs.get('two')!}.analysis.js`, 'utf8')).toContain(`// ${second!}`);
      let message = '';
      try {
        bundleAll(path.join(root, 'again'), [good('one', first), broken, good('two', second)]);
      } catch (error) {
        expect(error).toBeInstanceOf(BundlingError);
        message = (error as Error).message;
      }
      expect(message).toMatch(/function broken:\n.*Could not resolve "no-such-package"/);
      expect(message).not.toMatch(/function (one|two):/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);

  it('builds a bundle once into a shared root, by its entry, and moves it there complete', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-bundles-'));
    try {
      const [first, second] = Object.keys(SMALL_SOURCES);
      const request = (source: string | undefined) => small('one', source!);
      const dir = bundleAll(root, [request(first)], { shared: true }).get('one') as string;
      expect(fs.existsSync(path.join(dir, 'index.mjs'))).toBe(true);
      expect(fs.existsSync(`${dir}.analysis.js`)).toBe(true);
      const builtAt = fs.statSync(path.join(dir, 'index.mjs')).mtimeMs;
      // Another process (any call with the same root) reuses it as it is; nothing is staged.
      expect(bundleAll(root, [request(first)], { shared: true }).get('one')).toBe(dir);
      expect(fs.statSync(path.join(dir, 'index.mjs')).mtimeMs).toBe(builtAt);
      expect(fs.readdirSync(root).filter((f) => f.startsWith('.staging'))).toEqual([]);
      // The same name with another entry is another bundle beside it.
      const other = bundleAll(root, [request(second)], { shared: true }).get('one') as string;
      expect(other).not.toBe(dir);
      expect(fs.readFileSync(path.join(other, 'index.mjs'), 'utf8')).not.toBe(fs.readFileSync(path.join(dir, 'index.mjs'), 'utf8'));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('IoT ingest', () => {
  it('builds the dead-letter queue (encrypted, TLS only) and the rule error role even without ingest handlers', () => {
    template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'iot.amazonaws.com' } })] },
    });
  });

  it('deploys one topic rule per manifest rule, with the real handlers', () => {
    template.resourceCountIs('AWS::IoT::TopicRule', iotRules.length);
  });

  describe('with ingest handlers (fixture)', () => {
    let fx: ReturnType<typeof synth>;
    beforeAll(() => {
      // Its ingest handlers are stand-ins (test/support/portal-stack.ts).
      fx = synth(FULL_STACK);
    });

    it('has one topic rule per manifest rule, with its SQL, onto the ingest stream keyed by the IMEI', () => {
      expect(fx.stack.functions.get('ingest')).toBeDefined();
      const stream = fx.stack.getLogicalId(fx.stack.ingestRules!.stream.node.defaultChild as never);
      fx.template.resourceCountIs('AWS::IoT::TopicRule', iotRules.length);
      for (const rule of iotRules) {
        fx.template.hasResourceProperties('AWS::IoT::TopicRule', {
          RuleName: iotRuleName(STACK_NAME, rule),
          TopicRulePayload: {
            Sql: iotRuleSql(rule),
            AwsIotSqlVersion: '2016-03-23',
            Actions: [{ Kinesis: { StreamName: { Ref: stream }, PartitionKey: `\${topic(${rule.imeiLevel})}`, RoleArn: Match.anyValue() } }],
          },
        });
      }
      for (const rule of iotRules) {
        expect(iotRuleSql(rule)).toContain(`topic(${rule.imeiLevel}) AS imei`);
        expect(iotRuleSql(rule)).toContain('timestamp()');
      }
      // On demand: no shard count to keep up with (test/infra/monitoring.test.ts checks the mode in the default stack).
      fx.template.hasResourceProperties('AWS::Kinesis::Stream', { StreamModeDetails: { StreamMode: 'ON_DEMAND' }, StreamEncryption: { EncryptionType: 'KMS' } });
      expect(Object.values(fx.template.findResources('AWS::Kinesis::Stream'))[0]?.['Properties']?.['ShardCount']).toBeUndefined();
    });

    it('gives every rule an error action to the ingest failure queue, which moves what cannot be recorded to the dead-letter queue', () => {
      const failures = fx.stack.getLogicalId(fx.stack.ingestRules!.failureQueue.node.defaultChild as never);
      const dlq = fx.stack.getLogicalId(fx.stack.deadLetterQueue.node.defaultChild as never);
      for (const res of Object.values(fx.template.findResources('AWS::IoT::TopicRule')) as Resource[]) {
        const error = res.Properties['TopicRulePayload']['ErrorAction'];
        expect(error.Sqs.QueueUrl).toEqual({ Ref: failures });
        expect(error.Sqs.RoleArn).toBeDefined();
      }
      const queue = fx.template.findResources('AWS::SQS::Queue')[failures] as Resource;
      expect(queue.Properties['RedrivePolicy']).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 5 });
      // Six times the consumer's timeout, so a message is not handed out again while it is being recorded.
      expect(queue.Properties['VisibilityTimeout']).toBe(6 * fx.stack.functions.get(INGEST_FAILURES)!.settings.timeoutSeconds);
    });

    it('records the failure queue as dead letters: the ingest-failures function reads it with partial batch answers and may read the stream back', () => {
      const fn = fx.stack.functions.get(INGEST_FAILURES)!;
      const failures = fx.stack.getLogicalId(fx.stack.ingestRules!.failureQueue.node.defaultChild as never);
      fx.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: logicalId(fx.stack, fn) },
        EventSourceArn: { 'Fn::GetAtt': [failures, 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const stream = fx.stack.getLogicalId(fx.stack.ingestRules!.stream.node.defaultChild as never);
      const statements = (Object.values(fx.template.findResources('AWS::IAM::Policy')) as Resource[])
        .filter((p) => (p.Properties['Roles'] as unknown[]).some((r) => JSON.stringify(r).includes(fx.stack.getLogicalId(fn.role.node.defaultChild as never))))
        .flatMap((p) => p.Properties['PolicyDocument']['Statement'] as { Action: string | string[]; Resource: unknown }[]);
      const onStream = statements.filter((st) => JSON.stringify(st.Resource).includes(stream)).flatMap((st) => [st.Action].flat());
      expect(onStream).toEqual(expect.arrayContaining(['kinesis:GetShardIterator', 'kinesis:GetRecords']));
      expect(onStream.filter((a) => /^kinesis:Put/.test(a))).toEqual([]);
    });

    it.each(queueList.map((q) => [q.name, q] as const))(
      'work queue %s: its own dead-letter queue after maxReceiveCount, the manifest visibility, its consumer with partial batch answers; sent to only by the functions declaring it',
      (name, def) => {
        const work = fx.stack.workQueues.queues.get(name)!;
        const queue = fx.stack.getLogicalId(work.queue.node.defaultChild as never);
        const dlq = fx.stack.getLogicalId(work.deadLetterQueue.node.defaultChild as never);
        const consumer = fx.stack.functions.get(name)!;
        const props = (fx.template.findResources('AWS::SQS::Queue')[queue] as Resource).Properties;
        expect(props['RedrivePolicy']).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: def.maxReceiveCount });
        expect(props['VisibilityTimeout']).toBe(def.visibilityTimeoutSeconds);
        expect(props['VisibilityTimeout']).toBeGreaterThanOrEqual(consumer.settings.timeoutSeconds);
        expect(props['MessageRetentionPeriod']).toBe(def.retentionSeconds);
        expect(props['SqsManagedSseEnabled']).toBe(true);
        expect((fx.template.findResources('AWS::SQS::Queue')[dlq] as Resource).Properties['SqsManagedSseEnabled']).toBe(true);
        fx.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
          FunctionName: { Ref: logicalId(fx.stack, consumer) },
          EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
          BatchSize: def.batchSize,
          ScalingConfig: { MaximumConcurrency: def.concurrency },
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        });
        const senders = [...fx.stack.functions.entries()].filter(([, fn]) =>
          (Object.values(fx.template.findResources('AWS::IAM::Policy')) as Resource[])
            .filter((p) => JSON.stringify(p.Properties['Roles']).includes(fx.stack.getLogicalId(fn.role.node.defaultChild as never)))
            .flatMap((p) => p.Properties['PolicyDocument']['Statement'] as { Action: string | string[]; Resource: unknown }[])
            .some((st) => [st.Action].flat().includes('sqs:SendMessage') && JSON.stringify(st.Resource).includes(queue)),
        );
        const declaring = Object.entries(functionResources)
          .filter(([, r]) => (name === ALERT_DELIVERY_FUNCTION && r.alerts) || (r.queues as readonly string[] | undefined)?.includes(name))
          .map(([n]) => n);
        expect(senders.map(([n]) => n).sort()).toEqual(declaring.sort());
        for (const [, fn] of senders) {
          const variables = (fx.template.findResources('AWS::Lambda::Function')[logicalId(fx.stack, fn)] as Resource).Properties['Environment']['Variables'];
          expect(JSON.stringify(variables['QUEUE_URLS'])).toContain(JSON.stringify({ Ref: queue }));
        }
      },
    );

    it('reads the stream through its enhanced fan-out consumer with the shared settings, failed batches to the ingest failure queue', () => {
      const ingest = logicalId(fx.stack, fx.stack.functions.get('ingest')!);
      const consumer = fx.stack.getLogicalId(fx.stack.ingestRules!.consumer.node.defaultChild as never);
      const failures = fx.stack.getLogicalId(fx.stack.ingestRules!.failureQueue.node.defaultChild as never);
      fx.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: ingest },
        EventSourceArn: { 'Fn::GetAtt': [consumer, 'ConsumerARN'] },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: INGEST_STREAM.batchSize,
        MaximumBatchingWindowInSeconds: INGEST_STREAM.batchingWindowMs / 1000,
        ParallelizationFactor: INGEST_STREAM.parallelizationFactor,
        MaximumRetryAttempts: INGEST_STREAM.retryAttempts,
        BisectBatchOnFunctionError: INGEST_STREAM.bisectOnError,
        MaximumRecordAgeInSeconds: INGEST_STREAM.maxRecordAgeSeconds,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failures, 'Arn'] } } },
      });
      // Nothing invokes the function but the mapping: no IoT Core invoke permission for it.
      const liveAuthorizer = fx.stack.getLogicalId(fx.stack.liveAuthorizer.authorizer);
      const perms = (Object.values(fx.template.findResources('AWS::Lambda::Permission')) as Resource[]).filter(
        (p) => p.Properties['Principal'] === 'iot.amazonaws.com' && p.Properties['SourceArn']?.['Fn::GetAtt']?.[0] !== liveAuthorizer,
      );
      expect(perms).toHaveLength(0);
    });
  });
});

describe('scheduled jobs on EventBridge Scheduler', () => {
  let fx: ReturnType<typeof synth>;
  let json: { Resources: Record<string, Resource> };
  const jobsArn = () => ({ 'Fn::GetAtt': [logicalId(fx.stack, fx.stack.functions.get('jobs')!), 'Arn'] });
  const dlqArn = () => ({ 'Fn::GetAtt': [fx.stack.getLogicalId(fx.stack.deadLetterQueue.node.defaultChild as never), 'Arn'] });
  const roleId = () => fx.stack.getLogicalId(fx.stack.jobSchedules!.role.node.defaultChild as never);

  beforeAll(() => {
    // Three jobs of the fixture: every minute, nightly in Stockholm, weekly in UTC.
    fx = synth(FULL_STACK);
    json = fx.template.toJSON() as typeof json;
  });

  it('has one schedule per job: its expression, its time zone (UTC by default), no flexible window', () => {
    expect(FULL_STACK.jobs!.map((j) => [j.name, j.schedule, j.timeZone, j.file])).toEqual([
      ['command-timeouts', 'rate(1 minute)', undefined, path.relative(REPO_ROOT, JOB_FIXTURE)],
      ['nightly', 'cron(0 3 * * ? *)', 'Europe/Stockholm', path.relative(REPO_ROOT, JOB_FIXTURE)],
      ['weekly-utc', 'cron(30 6 ? * MON *)', undefined, path.relative(REPO_ROOT, JOB_FIXTURE)],
    ]);
    fx.template.resourceCountIs('AWS::Scheduler::Schedule', 3);
    const byExpression = (expression: string) =>
      (Object.values(fx.template.findResources('AWS::Scheduler::Schedule', { Properties: { ScheduleExpression: expression } })) as Resource[])[0]!.Properties;
    expect(byExpression('cron(0 3 * * ? *)')['ScheduleExpressionTimezone']).toBe('Europe/Stockholm');
    expect(byExpression('cron(30 6 ? * MON *)')['ScheduleExpressionTimezone']).toBe('Etc/UTC');
    // A rate runs in no zone; CDK writes its default, which changes nothing.
    expect(byExpression('rate(1 minute)')['ScheduleExpressionTimezone']).toBe('Etc/UTC');
    for (const expression of ['rate(1 minute)', 'cron(0 3 * * ? *)', 'cron(30 6 ? * MON *)']) {
      expect(byExpression(expression)).toMatchObject({ State: 'ENABLED', FlexibleTimeWindow: { Mode: 'OFF' } });
    }
  });

  it('invokes the jobs function with { "job": name }, retries twice within an hour, then the dead-letter queue', () => {
    for (const name of ['command-timeouts', 'nightly', 'weekly-utc']) {
      fx.template.hasResourceProperties('AWS::Scheduler::Schedule', {
        Target: {
          Arn: jobsArn(),
          RoleArn: { 'Fn::GetAtt': [roleId(), 'Arn'] },
          Input: JSON.stringify({ job: name }),
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
          DeadLetterConfig: { Arn: dlqArn() },
        },
      });
    }
  });

  it('keeps the schedules in a group of their own, created before them and deleted with the stack', () => {
    const groups = Object.entries(fx.template.findResources('AWS::Scheduler::ScheduleGroup'));
    expect(groups).toHaveLength(1);
    const [groupId, group] = groups[0]! as [string, Resource];
    expect(group.DeletionPolicy).toBe('Delete');
    expect(group.Properties['Name']).toMatch(new RegExp(`^${STACK_NAME}-`));
    const policyId = fx.stack.getLogicalId(fx.stack.jobSchedules!.role.node.findChild('DefaultPolicy').node.defaultChild as never);
    for (const schedule of Object.values(fx.template.findResources('AWS::Scheduler::Schedule')) as (Resource & { DependsOn: string[] })[]) {
      // By name, which CloudFormation does not follow: hence the explicit dependencies.
      expect(schedule.Properties['GroupName']).toBe(group.Properties['Name']);
      expect(schedule.DependsOn).toEqual(expect.arrayContaining([groupId, roleId(), policyId]));
    }
  });

  it('lets Scheduler, for schedules of that group in this account, invoke the jobs function and send to the dead-letter queue, nothing else', () => {
    const role = json.Resources[roleId()]!;
    expect(role.Properties['ManagedPolicyArns']).toBeUndefined();
    const trust = role.Properties['AssumeRolePolicyDocument'].Statement;
    expect(trust).toHaveLength(1);
    expect(trust[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'sts:AssumeRole',
      Principal: { Service: 'scheduler.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': expect.anything() } },
    });
    const groupId = fx.stack.getLogicalId(fx.stack.jobSchedules!.group.node.defaultChild as never);
    expect(trust[0].Condition.StringEquals['aws:SourceArn']).toEqual({ 'Fn::GetAtt': [groupId, 'Arn'] });
    const statements = policyStatements(fx.template)
      .filter(({ statement }) => statement['Effect'] === 'Allow')
      .filter(({ owner }) => asArray((json.Resources[owner]?.Properties['Roles'] ?? []) as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId() })))
      .map(({ statement }) => statement);
    const byAction = (action: string) => statements.filter((st) => asArray(st['Action'] as string | string[]).includes(action));
    expect(statements.flatMap((st) => asArray(st['Action'] as string | string[])).sort()).toEqual(['lambda:InvokeFunction', 'sqs:SendMessage']);
    expect(byAction('lambda:InvokeFunction').flatMap((st) => asArray(st['Resource']))).toEqual([
      jobsArn(),
      { 'Fn::Join': ['', [jobsArn(), ':*']] },
    ]);
    expect(byAction('sqs:SendMessage').flatMap((st) => asArray(st['Resource']))).toEqual([dlqArn()]);
  });

  it('has no EventBridge rule for jobs and no resource-based permission for EventBridge on the jobs function', () => {
    const rules = Object.values(fx.template.findResources('AWS::Events::Rule')) as Resource[];
    expect(rules.filter((r) => JSON.stringify(r.Properties).includes(JSON.stringify(jobsArn())))).toEqual([]);
    const perms = Object.values(fx.template.findResources('AWS::Lambda::Permission')) as Resource[];
    expect(perms.filter((p) => JSON.stringify(p.Properties['FunctionName']) === JSON.stringify(jobsArn()))).toEqual([]);
  });

  it('schedules every job of infra/jobs.ts in the default stack', () => {
    template.resourceCountIs('AWS::Scheduler::Schedule', jobs.length);
    template.resourceCountIs('AWS::Events::Rule', 0);
    for (const job of jobs) {
      template.hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: job.schedule,
        Target: Match.objectLike({ Input: JSON.stringify({ job: job.name }) }),
      });
    }
  });

  it('rejects a malformed schedule', () => {
    expect(() => synth({ jobs: [{ name: 'bad', schedule: 'every minute', file: JOB_FIXTURE, description: 'x' }] })).toThrow(/rate\(\.\.\.\)/);
  });

  // A job (route, IoT rule) whose handler file is missing: test/contract/manifests.test.ts.
});

describe('web hosting', () => {
  let webWarnings: unknown[];
  // Synthesis in a hook, which has the longer time-out.
  beforeAll(() => {
    webWarnings = Annotations.fromStack(synth({ keepWebWarning: true }).stack).findWarning('*', Match.stringLikeRegexp('web app is not deployed'));
  });

  it('keeps the site bucket private, encrypted, TLS-only and access-logged', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
    });
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy')) as Resource[];
    expect(policies.length).toBeGreaterThanOrEqual(2);
    for (const p of policies) {
      expect(p.Properties['PolicyDocument'].Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('serves the bucket through origin access control, the API uncached at /api/*, HTTPS only', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const [dist] = Object.values(template.findResources('AWS::CloudFront::Distribution')) as Resource[];
    const cfg = dist!.Properties['DistributionConfig'] as DistributionConfig;
    expect(cfg.DefaultRootObject).toBe('index.html');
    // The web build's bucket (the default behaviour's origin); the base map's shares the access control.
    const s3Origin = cfg.Origins.find((o) => o.Id === cfg.DefaultCacheBehavior.TargetOriginId)!;
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(s3Origin.S3OriginConfig!.OriginAccessIdentity).toBe('');
    expect(cfg.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    // Our own policy (the managed security headers plus the CSP): test/infra/csp.test.ts.
    expect(cfg.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: expect.stringMatching(/^WebSecurityHeaders/) });
    expect(cfg.DefaultCacheBehavior.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
    const api = cfg.CacheBehaviors.find((b) => b.PathPattern === '/api/*')!;
    expect(api.CachePolicyId).toBe(cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(api.OriginRequestPolicyId).toBe(cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId);
    expect(api.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']));
    expect(api.ViewerProtocolPolicy).toBe('https-only');
    const apiOrigin = cfg.Origins.find((o) => o.Id === api.TargetOriginId)!;
    expect(apiOrigin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(cfg.Logging).toBeDefined();
  });

  it('runs the brand router generated from infra/brand-router.ts (JS 2.0, viewer request)', () => {
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionConfig: { Runtime: 'cloudfront-js-2.0' },
      FunctionCode: brandRouterCode({}),
    });
    const domains = { 'portal.brand-two.se': 2, 'spåra.example.no': 5 };
    // The full stack's brand domains come as a JSON string, as `-c brandDomains=...` gives them.
    expect(FULL_STACK.context?.['brandDomains']).toBe(JSON.stringify({ 'portal.example.se': 0, 'track.example.no': 3 }));
    synth(FULL_STACK).template.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: brandRouterCode({ 'portal.example.se': 0, 'track.example.no': 3 }) });
    expect(() => synth({ context: { brandDomains: domains } })).toThrow(/not a host name/);
  });

  it('uses the brand domains as aliases with TLS 1.2 when a certificate is configured', () => {
    expect(FULL_STACK.context?.['certificateArn']).toBe('arn:aws:acm:us-east-1:123456789012:certificate/abc-123');
    synth(FULL_STACK).template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['portal.example.se', 'track.example.no'],
        ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' }),
      }),
    });
  });

  it('deploys web/dist only when it holds index.html, and warns otherwise', () => {
    template.resourceCountIs('Custom::CDKBucketDeployment', 0);
    expect(webWarnings).toHaveLength(1);
    // The full stack has a web build.
    const fx = synth(FULL_STACK);
    fx.template.resourceCountIs('Custom::CDKBucketDeployment', 1);
    fx.template.hasResourceProperties('Custom::CDKBucketDeployment', { DistributionPaths: ['/*'] });
  });
});

describe('Cognito', () => {
  it('has a pool without self sign-up, with the password rule, no recovery, retained and protected', () => {
    template.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        AliasAttributes: ['preferred_username'],
        UsernameConfiguration: { CaseSensitive: false },
        DeletionProtection: 'ACTIVE',
        MfaConfiguration: 'OFF',
        Policies: {
          PasswordPolicy: Match.objectLike({ MinimumLength: 8, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true }),
        },
        AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
      }),
    });
  });

  it('has a client for admin password auth and refresh, 1 h access and 30 d refresh tokens, revocable', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: ['ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      AccessTokenValidity: 60,
      RefreshTokenValidity: 43200,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes', RefreshToken: 'minutes' }),
      EnableTokenRevocation: true,
      GenerateSecret: false,
    });
  });
});

describe('least privilege', () => {
  const FULL_RESOURCE_ACTIONS = new Set([
    'sns:Publish', // SMS to a phone number has no ARN
    'xray:PutTraceSegments',
    'xray:PutTelemetryRecords',
    'iot:DescribeEndpoint',
    'cloudfront:CreateInvalidation', // BucketDeployment (CDK), only with a web build
    'cloudfront:GetInvalidation',
  ]);

  it('grants no action wildcard and Resource "*" only to actions without resource types', () => {
    // The full stack: with the web deployment, ingest and jobs, as well as the default one.
    for (const fx of [synth(), synth(FULL_STACK)]) {
      for (const { owner, statement } of policyStatements(fx.template)) {
        if (statement['Effect'] !== 'Allow') continue;
        const actions = asArray(statement['Action'] as string | string[]);
        for (const action of actions) {
          expect(action, owner).not.toBe('*');
          expect(action, owner).not.toMatch(/^[a-z0-9-]+:\*$/);
        }
        if (asArray(statement['Resource'] as unknown).includes('*')) {
          for (const action of actions) expect(FULL_RESOURCE_ACTIONS, `${owner}: ${action} on *`).toContain(action);
        }
      }
    }
  });

  // What each function is granted: test/infra/least-privilege.test.ts.
});

describe('outputs and maps', () => {
  it('outputs what the web app and the scripts need', () => {
    const outputs = Object.keys(template.toJSON()['Outputs']);
    for (const name of ['ApiUrl', 'DistributionDomain', 'WebBucket', 'UserPoolId', 'UserPoolClientId', 'MapsApiKey', 'DeadLetterQueueUrl', 'TablePrefix']) {
      expect(outputs).toContain(name);
    }
    template.hasOutput('TablePrefix', { Value: `${STACK_NAME}-` });
  });

  it('limits the maps API key to tiles and static maps of the default provider, referred from our pages', () => {
    template.hasResourceProperties('AWS::Location::APIKey', {
      NoExpiry: true,
      Restrictions: {
        AllowActions: ['geo-maps:GetTile', 'geo-maps:GetStaticMap'],
        AllowResources: [`arn:aws:geo-maps:${Stack.of(stack).region}::provider/default`],
        AllowReferers: Match.anyValue(),
      },
    });
  });

  it("gives the functions the map style URL with the key's value, read at deploy time from that key only", () => {
    const json = template.toJSON() as { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
    const describe = Object.values(json.Resources).filter(
      (r) => r.Type === 'Custom::AWS' && JSON.stringify(r.Properties?.['Create'] ?? '').includes('describeKey'),
    );
    expect(describe).toHaveLength(1);
    const policies = Object.values(json.Resources).filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties).includes('geo:DescribeKey'));
    expect(policies).toHaveLength(1);
    const statements = (policies[0]?.Properties?.['PolicyDocument'] as { Statement: Array<{ Action: unknown; Resource: unknown }> }).Statement;
    const statement = statements.find((st) => JSON.stringify(st.Action).includes('geo:DescribeKey'));
    // Only this key: the resource is the key's ARN attribute, never "*".
    expect(JSON.stringify(statement?.Resource)).toMatch(/KeyArn/);
    const functions = Object.values(json.Resources).filter((r) => r.Type === 'AWS::Lambda::Function' && JSON.stringify(r.Properties).includes('"RUNTIME"'));
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      const style = JSON.stringify((fn.Properties?.['Environment'] as { Variables: Record<string, unknown> }).Variables['MAP_STYLE_URL']);
      expect(style).toContain('/v2/styles/Standard/descriptor?key=');
      expect(style).toContain('Key');
    }
  });
});
