/**
 * What the cost model needs to know about the deployed stack, read from a synthesized cloud
 * assembly: every CloudFormation template in it (`*.template.json`, nested stacks'
 * `*.nested.template.json` included, in nested assemblies too), so that it does not matter how the
 * resources are spread over stacks. `inventoryOf` is pure (templates in, facts out); `readAssembly`
 * finds and parses the files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BASEMAP_PATH } from '../../shared/basemap';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';
import { tableList } from '../../shared/tables';

export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly Metadata?: Record<string, unknown>;
}

export interface Template {
  /** The file, relative to the assembly. */
  readonly file: string;
  readonly resources: Readonly<Record<string, CfnResource>>;
}

/** What a function is for: it decides which usage figures apply to it. */
export type FunctionGroup = 'ingest' | 'ingest-failures' | 'http' | 'queue' | 'jobs' | 'live-authorizer' | 'deploy-time';

export interface FunctionFact {
  /** `ingest`, a capability (`units`), a queue (`trip-addresses`); the logical id for CDK's own. */
  readonly name: string;
  readonly group: FunctionGroup;
  readonly memoryMb: number;
  readonly architecture: 'arm64' | 'x86_64';
  readonly tracing: boolean;
  /** Lambda writes its START, END and REPORT lines of each invocation (system log level INFO or DEBUG, or the text format). */
  readonly platformLogs: boolean;
  readonly template: string;
}

export interface TableFact {
  /** The manifest name (`positions`) when the physical name ends in one, else the physical name. */
  readonly name: string;
  readonly billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
  /** Global secondary indexes projecting every attribute: each write of the item is written there too. */
  readonly fullIndexes: number;
  readonly indexes: number;
  readonly pitr: boolean;
  /** The table class: Standard, or Standard-Infrequent Access (cheaper storage, dearer requests). */
  readonly tableClass: 'standard' | 'standardIa';
  /** Provisioned capacity of the table and its indexes, summed (PROVISIONED only). */
  readonly provisioned?: { readonly rcu: number; readonly wcu: number };
  /** Names of the indexes keeping every attribute (ProjectionType ALL), for the provisioned ones' writes. */
  readonly fullIndexNames?: readonly string[];
  /** Application Auto Scaling of a PROVISIONED table: one entry per scaled table or index dimension. */
  readonly autoScaling?: readonly ScaledCapacity[];
}

/** A scalable target of a table or one of its indexes and its target tracking policy. */
export interface ScaledCapacity {
  /** The index, or undefined for the table itself. */
  readonly index?: string;
  readonly kind: 'read' | 'write';
  readonly min: number;
  readonly max: number;
  /** TargetValue of the target tracking policy: consumed over provisioned, per cent (none: 70, the console's default). */
  readonly targetPercent: number;
}

export interface StreamFact {
  readonly logicalId: string;
  readonly mode: 'ON_DEMAND' | 'PROVISIONED';
  /** ShardCount of a provisioned stream; on demand, 0 (Kinesis decides). */
  readonly shards: number;
  readonly retentionHours: number;
}

export interface Inventory {
  readonly templates: readonly string[];
  readonly functions: readonly FunctionFact[];
  readonly tables: readonly TableFact[];
  readonly streams: readonly StreamFact[];
  /** Enhanced fan-out consumers (AWS::Kinesis::StreamConsumer). */
  readonly streamConsumers: number;
  /** ParallelizationFactor of the Kinesis event source mapping(s); 1 when none says. */
  readonly parallelizationFactor: number;
  /** The Kinesis mappings' batching window (MaximumBatchingWindowInSeconds), 0 when none. */
  readonly batchingWindowSeconds: number;
  /** Topic rules and the actions each applies. */
  readonly topicRules: readonly { readonly name: string; readonly actions: number }[];
  readonly queues: number;
  /** Event source mappings reading SQS queues: each keeps Lambda's pollers asking. */
  readonly sqsMappings: number;
  /** EventBridge Scheduler expressions. */
  readonly schedules: readonly string[];
  readonly httpApis: number;
  /** HTTP API routes, and whether their stage publishes per-route metrics (billed as custom metrics). */
  readonly httpRoutes: number;
  readonly routeMetrics: boolean;
  readonly distributions: number;
  readonly cloudFrontFunctions: number;
  readonly userPools: readonly { readonly tier: string }[];
  readonly secrets: number;
  readonly kmsKeys: number;
  readonly snsTopics: number;
  readonly alarms: number;
  readonly dashboards: number;
  readonly logGroups: readonly { readonly retentionDays: number }[];
  readonly locationApiKeys: number;
  readonly buckets: number;
  /** A distribution serves the self-hosted street map (its `/basemap/*` behaviour): Amazon Location's tiles are then satellite only. */
  readonly selfHostedBasemap: boolean;
}

const KNOWN_FUNCTIONS: ReadonlyMap<string, FunctionGroup> = new Map<string, FunctionGroup>([
  ...routeList.map((r) => [r.capability, 'http'] as const),
  ...queueList.map((q) => [q.name, 'queue'] as const),
  ['ingest', 'ingest'],
  ['ingest-failures', 'ingest-failures'],
  ['jobs', 'jobs'],
  ['live-authorizer', 'live-authorizer'],
]);

const squash = (s: string) => s.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/** The portal's name of a function: from its construct path (`.../Fn-<name>/Function/Resource`), else its logical id. */
export function functionName(logicalId: string, resource: CfnResource): { name: string; group: FunctionGroup } {
  const path = typeof resource.Metadata?.['aws:cdk:path'] === 'string' ? resource.Metadata['aws:cdk:path'] : '';
  const fromPath = /(?:^|\/)Fn-([a-z0-9-]+)\/Function\/Resource$/.exec(path)?.[1];
  if (fromPath && KNOWN_FUNCTIONS.has(fromPath)) return { name: fromPath, group: KNOWN_FUNCTIONS.get(fromPath) as FunctionGroup };
  if (/(?:^|\/)LiveAuthorizer\/Function\/Function\/Resource$/.test(path) || /^LiveAuthorizerFunction[0-9A-F]{8}$/.test(logicalId)) {
    return { name: 'live-authorizer', group: 'live-authorizer' };
  }
  // Without path metadata: `Fn<name without dashes>Function<hash>`, the longest known name that fits.
  const candidates = [...KNOWN_FUNCTIONS.keys()].filter((n) => logicalId.toLowerCase().startsWith(`fn${squash(n)}function`));
  const best = candidates.sort((a, b) => b.length - a.length)[0];
  if (best) return { name: best, group: KNOWN_FUNCTIONS.get(best) as FunctionGroup };
  return { name: logicalId, group: 'deploy-time' };
}

function tableName(logicalId: string, resource: CfnResource): string {
  const physical = resource.Properties?.['TableName'];
  const names = [...tableList.map((t) => t.name)].sort((a, b) => b.length - a.length);
  if (typeof physical === 'string') return names.find((n) => physical.endsWith(`-${n}`) || physical === n) ?? physical;
  const byId = names.find((n) => logicalId.toLowerCase().startsWith(`tables${squash(n)}`));
  return byId ?? logicalId;
}

const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : fallback);

/** The facts of every template together. */
export function inventoryOf(templates: readonly Template[]): Inventory {
  const all = templates.flatMap((t) => Object.entries(t.resources).map(([id, r]) => ({ id, r, file: t.file })));
  const ofType = (type: string) => all.filter((x) => x.r.Type === type);
  const props = (r: CfnResource) => r.Properties ?? {};

  const functions: FunctionFact[] = ofType('AWS::Lambda::Function').map(({ id, r, file }) => {
    const p = props(r);
    const arch = Array.isArray(p['Architectures']) && p['Architectures'][0] === 'arm64' ? 'arm64' : 'x86_64';
    const tracing = (p['TracingConfig'] as { Mode?: string } | undefined)?.Mode === 'Active';
    const logging = p['LoggingConfig'] as { LogFormat?: string; SystemLogLevel?: string } | undefined;
    const platformLogs = logging?.LogFormat !== 'JSON' || !['WARN', 'ERROR'].includes(logging.SystemLogLevel ?? 'INFO');
    return { ...functionName(id, r), memoryMb: num(p['MemorySize'], 128), architecture: arch, tracing, platformLogs, template: file };
  });

  const scaling = autoScalingOf(all);
  const tables: TableFact[] = ofType('AWS::DynamoDB::Table').map(({ id, r }) => {
    const p = props(r);
    const gsis = (p['GlobalSecondaryIndexes'] as Array<{ IndexName?: string; Projection?: { ProjectionType?: string }; ProvisionedThroughput?: Record<string, unknown> }> | undefined) ?? [];
    const billingMode = p['BillingMode'] === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED';
    const pitr = (p['PointInTimeRecoverySpecification'] as { PointInTimeRecoveryEnabled?: boolean } | undefined)?.PointInTimeRecoveryEnabled === true;
    const throughput = [p['ProvisionedThroughput'], ...gsis.map((g) => g.ProvisionedThroughput)] as Array<Record<string, unknown> | undefined>;
    return {
      name: tableName(id, r),
      billingMode,
      indexes: gsis.length,
      fullIndexes: gsis.filter((g) => g.Projection?.ProjectionType === 'ALL').length,
      pitr,
      tableClass: p['TableClass'] === 'STANDARD_INFREQUENT_ACCESS' ? 'standardIa' : 'standard',
      ...(billingMode === 'PROVISIONED'
        ? {
            provisioned: {
              rcu: throughput.reduce((s, t) => s + num(t?.['ReadCapacityUnits'], 0), 0),
              wcu: throughput.reduce((s, t) => s + num(t?.['WriteCapacityUnits'], 0), 0),
            },
            fullIndexNames: gsis.filter((g) => g.Projection?.ProjectionType === 'ALL').map((g) => String(g.IndexName)),
            ...(scaling.has(id) ? { autoScaling: scaling.get(id) } : {}),
          }
        : {}),
    };
  });

  const streams: StreamFact[] = ofType('AWS::Kinesis::Stream').map(({ id, r }) => {
    const p = props(r);
    const mode = (p['StreamModeDetails'] as { StreamMode?: string } | undefined)?.StreamMode === 'ON_DEMAND' ? 'ON_DEMAND' : 'PROVISIONED';
    return { logicalId: id, mode, shards: mode === 'PROVISIONED' ? num(p['ShardCount'], 1) : 0, retentionHours: num(p['RetentionPeriodHours'], 24) };
  });

  const mappings = ofType('AWS::Lambda::EventSourceMapping').map(({ r }) => props(r));
  const kinesisMappings = mappings.filter((m) => m['StartingPosition'] !== undefined);
  const parallelization = Math.max(1, ...kinesisMappings.map((m) => num(m['ParallelizationFactor'], 1)));

  return {
    templates: templates.map((t) => t.file),
    functions,
    tables,
    streams,
    streamConsumers: ofType('AWS::Kinesis::StreamConsumer').length,
    parallelizationFactor: parallelization,
    batchingWindowSeconds: Math.max(0, ...kinesisMappings.map((m) => num(m['MaximumBatchingWindowInSeconds'], 0))),
    topicRules: ofType('AWS::IoT::TopicRule').map(({ id, r }) => {
      const payload = props(r)['TopicRulePayload'] as { Actions?: unknown[] } | undefined;
      return { name: id, actions: payload?.Actions?.length ?? 0 };
    }),
    queues: ofType('AWS::SQS::Queue').length,
    sqsMappings: mappings.length - kinesisMappings.length,
    schedules: ofType('AWS::Scheduler::Schedule')
      .map(({ r }) => props(r)['ScheduleExpression'])
      .filter((e): e is string => typeof e === 'string'),
    httpApis: ofType('AWS::ApiGatewayV2::Api').length,
    httpRoutes: ofType('AWS::ApiGatewayV2::Route').length,
    routeMetrics: ofType('AWS::ApiGatewayV2::Stage').some(({ r }) => (props(r)['DefaultRouteSettings'] as { DetailedMetricsEnabled?: boolean } | undefined)?.DetailedMetricsEnabled === true),
    distributions: ofType('AWS::CloudFront::Distribution').length,
    cloudFrontFunctions: ofType('AWS::CloudFront::Function').length,
    userPools: ofType('AWS::Cognito::UserPool').map(({ r }) => ({ tier: String(props(r)['UserPoolTier'] ?? 'ESSENTIALS') })),
    secrets: ofType('AWS::SecretsManager::Secret').length,
    kmsKeys: ofType('AWS::KMS::Key').length,
    snsTopics: ofType('AWS::SNS::Topic').length,
    alarms: ofType('AWS::CloudWatch::Alarm').length + ofType('AWS::CloudWatch::CompositeAlarm').length,
    dashboards: ofType('AWS::CloudWatch::Dashboard').length,
    logGroups: ofType('AWS::Logs::LogGroup').map(({ r }) => ({ retentionDays: num(props(r)['RetentionInDays'], 0) })),
    locationApiKeys: ofType('AWS::Location::APIKey').length,
    buckets: ofType('AWS::S3::Bucket').length,
    selfHostedBasemap: ofType('AWS::CloudFront::Distribution').some(({ r }) =>
      ((props(r)['DistributionConfig'] as { CacheBehaviors?: Array<{ PathPattern?: string }> } | undefined)?.CacheBehaviors ?? []).some((b) => b.PathPattern === `${BASEMAP_PATH}*`),
    ),
  };
}

/**
 * DynamoDB's scalable targets (`table/<table>` or `table/<table>/index/<index>`, the table by Ref
 * or by name) with their target tracking policies' target values, by the table's logical id.
 */
function autoScalingOf(all: ReadonlyArray<{ id: string; r: CfnResource }>): Map<string, ScaledCapacity[]> {
  const tablesByName = new Map(all.filter((x) => x.r.Type === 'AWS::DynamoDB::Table').map((x) => [String(x.r.Properties?.['TableName'] ?? x.id), x.id]));
  const targetOf = new Map<string, number>();
  for (const { r } of all.filter((x) => x.r.Type === 'AWS::ApplicationAutoScaling::ScalingPolicy')) {
    const p = r.Properties ?? {};
    const ref = (p['ScalingTargetId'] as { Ref?: string } | undefined)?.Ref;
    const value = (p['TargetTrackingScalingPolicyConfiguration'] as { TargetValue?: unknown } | undefined)?.TargetValue;
    if (ref && value !== undefined) targetOf.set(ref, num(value, 70));
  }
  const out = new Map<string, ScaledCapacity[]>();
  for (const { id, r } of all.filter((x) => x.r.Type === 'AWS::ApplicationAutoScaling::ScalableTarget')) {
    const p = r.Properties ?? {};
    if (p['ServiceNamespace'] !== 'dynamodb') continue;
    const dimension = /^dynamodb:(table|index):(Read|Write)CapacityUnits$/.exec(String(p['ScalableDimension'] ?? ''));
    if (!dimension) continue;
    // `table/x/index/y` as a string, or joined from parts with the table as a Ref.
    const resource = p['ResourceId'];
    const parts = typeof resource === 'string' ? [resource] : ((resource as { 'Fn::Join'?: [string, unknown[]] } | undefined)?.['Fn::Join']?.[1] ?? []);
    let table: string | undefined;
    let text = '';
    for (const part of parts) {
      if (typeof part === 'string') text += part;
      else if (typeof (part as { Ref?: unknown }).Ref === 'string') {
        table = (part as { Ref: string }).Ref;
        text += '<table>';
      }
    }
    const path = /^table\/([^/]+)(?:\/index\/([^/]+))?$/.exec(text);
    if (!path) continue;
    table ??= tablesByName.get(path[1] as string);
    if (!table) continue;
    const list = out.get(table) ?? [];
    list.push({
      ...(path[2] ? { index: path[2] } : {}),
      kind: dimension[2] === 'Read' ? 'read' : 'write',
      min: num(p['MinCapacity'], 1),
      max: num(p['MaxCapacity'], 1),
      targetPercent: targetOf.get(id) ?? 70,
    });
    out.set(table, list);
  }
  return out;
}

/** Every `*.template.json` under the assembly directory (nested stacks and nested assemblies included; assets skipped). */
export function templateFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      if (entry.startsWith('asset.') || entry === '.bundles' || entry === 'node_modules') continue;
      const full = join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith('.template.json')) found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

export function readAssembly(dir: string): Inventory {
  const files = templateFiles(dir);
  if (!files.length) throw new Error(`no CloudFormation template (*.template.json) in ${dir}: is it a cloud assembly (cdk synth -o <dir>)?`);
  return inventoryOf(
    files.map((f) => {
      const json = JSON.parse(readFileSync(f, 'utf8')) as { Resources?: Record<string, CfnResource> };
      return { file: relative(dir, f), resources: json.Resources ?? {} };
    }),
  );
}
