/**
 * Reading the stack's facts from a cloud assembly: every template, nested stacks' included, with
 * what each resource says (memory, architecture, billing mode, stream mode, indexes).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { functionName, inventoryOf, readAssembly, templateFiles, type CfnResource } from './assembly';
import { itemSize } from './dynamo-size';
import { runsPerMonth } from './schedule-runs';
import { DAYS_PER_MONTH } from './model';

const fn = (path: string, props: Record<string, unknown> = {}): CfnResource => ({ Type: 'AWS::Lambda::Function', Properties: props, Metadata: { 'aws:cdk:path': path } });

const parent = {
  Resources: {
    FningestFunctionE4DDCF0C: fn('TrackingPortal/Fn-ingest/Function/Resource', { MemorySize: 1024, Architectures: ['arm64'], TracingConfig: { Mode: 'Active' }, LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'INFO', SystemLogLevel: 'WARN' } }),
    FnunitsFunctionC6E41DF3: fn('TrackingPortal/Api/Fn-units/Function/Resource', { MemorySize: 512, Architectures: ['arm64'], LoggingConfig: { LogFormat: 'JSON', SystemLogLevel: 'INFO' } }),
    AWS679f53fac002430cb0da5b7982bd22872D164C4C: fn('TrackingPortal/AWS679f53fac002430cb0da5b7982bd2287/Resource'),
    Nested: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'x' } },
    Schedule: { Type: 'AWS::Scheduler::Schedule', Properties: { ScheduleExpression: 'rate(1 minute)' } },
    Stage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { DefaultRouteSettings: { DetailedMetricsEnabled: true } } },
  },
};
const nested = {
  Resources: {
    Stream: { Type: 'AWS::Kinesis::Stream', Properties: { StreamModeDetails: { StreamMode: 'ON_DEMAND' }, RetentionPeriodHours: 24 } },
    Consumer: { Type: 'AWS::Kinesis::StreamConsumer', Properties: {} },
    Mapping: { Type: 'AWS::Lambda::EventSourceMapping', Properties: { StartingPosition: 'TRIM_HORIZON', ParallelizationFactor: 10 } },
    QueueMapping: { Type: 'AWS::Lambda::EventSourceMapping', Properties: { BatchSize: 10 } },
    TablesUnits: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        TableName: 'TrackingPortal-units',
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        GlobalSecondaryIndexes: [{ IndexName: 'byAccount', Projection: { ProjectionType: 'ALL' } }],
      },
    },
    TablesUnitCopies: {
      Type: 'AWS::DynamoDB::Table',
      Properties: { TableName: 'TrackingPortal-unit-copies', ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 3 } },
    },
    Alarm: { Type: 'AWS::CloudWatch::Alarm', Properties: {} },
    RouteA: { Type: 'AWS::ApiGatewayV2::Route', Properties: {} },
    RouteB: { Type: 'AWS::ApiGatewayV2::Route', Properties: {} },
    LiveAuthorizerFunctionA764593A: fn('TrackingPortal/Live/LiveAuthorizer/Function/Function/Resource', { MemorySize: 256 }),
  },
};

const dir = mkdtempSync(join(tmpdir(), 'cost-assembly-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readAssembly', () => {
  it('reads the stack template and its nested stacks\' templates, and no asset', () => {
    writeFileSync(join(dir, 'manifest.json'), '{}');
    writeFileSync(join(dir, 'TrackingPortal.template.json'), JSON.stringify(parent));
    writeFileSync(join(dir, 'TrackingPortalDataNested1234.nested.template.json'), JSON.stringify(nested));
    mkdirSync(join(dir, 'asset.abc'));
    writeFileSync(join(dir, 'asset.abc', 'old.template.json'), JSON.stringify(parent));
    expect(templateFiles(dir).map((f) => f.slice(dir.length + 1))).toEqual(['TrackingPortal.template.json', 'TrackingPortalDataNested1234.nested.template.json']);

    const inv = readAssembly(dir);
    expect(inv.templates).toEqual(['TrackingPortal.template.json', 'TrackingPortalDataNested1234.nested.template.json']);
    // Lambda's own log lines: off only in the JSON format with the system log level at WARN or ERROR.
    expect(inv.functions.map((f) => [f.name, f.group, f.memoryMb, f.architecture, f.tracing, f.platformLogs])).toEqual([
      ['ingest', 'ingest', 1024, 'arm64', true, false],
      ['units', 'http', 512, 'arm64', false, true],
      ['AWS679f53fac002430cb0da5b7982bd22872D164C4C', 'deploy-time', 128, 'x86_64', false, true],
      ['live-authorizer', 'live-authorizer', 256, 'x86_64', false, true],
    ]);
    expect(inv.streams).toEqual([{ logicalId: 'Stream', mode: 'ON_DEMAND', shards: 0, retentionHours: 24 }]);
    expect([inv.streamConsumers, inv.parallelizationFactor, inv.sqsMappings, inv.alarms]).toEqual([1, 10, 1, 1]);
    expect(inv.tables).toEqual([
      { name: 'units', billingMode: 'PAY_PER_REQUEST', indexes: 1, fullIndexes: 1, pitr: true, tableClass: 'standard' },
      { name: 'unit-copies', billingMode: 'PROVISIONED', indexes: 0, fullIndexes: 0, pitr: false, tableClass: 'standard', provisioned: { rcu: 5, wcu: 3 }, fullIndexNames: [] },
    ]);
    expect(inv.schedules).toEqual(['rate(1 minute)']);
    // The stage in the parent, its routes in the nested stack.
    expect([inv.httpRoutes, inv.routeMetrics]).toEqual([2, true]);
  });

  it('refuses a directory without templates', () => {
    const empty = mkdtempSync(join(tmpdir(), 'cost-empty-'));
    try {
      expect(() => readAssembly(empty)).toThrow(/no CloudFormation template/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('functionName', () => {
  it('names a function by its logical id when the template has no path metadata', () => {
    expect(functionName('FntripaddressesFunction359066D4', { Type: 'AWS::Lambda::Function' })).toEqual({ name: 'trip-addresses', group: 'queue' });
    expect(functionName('FningestfailuresFunctionC1694F16', { Type: 'AWS::Lambda::Function' })).toEqual({ name: 'ingest-failures', group: 'ingest-failures' });
    expect(functionName('FnjobsFunction31D7F749', { Type: 'AWS::Lambda::Function' })).toEqual({ name: 'jobs', group: 'jobs' });
  });

  it('counts the provisioned stream\'s shards, one when the template says none', () => {
    const inv = inventoryOf([{ file: 't', resources: { S: { Type: 'AWS::Kinesis::Stream', Properties: {} }, T: { Type: 'AWS::Kinesis::Stream', Properties: { ShardCount: 3 } } } }]);
    expect(inv.streams.map((s) => [s.mode, s.shards])).toEqual([
      ['PROVISIONED', 1],
      ['PROVISIONED', 3],
    ]);
  });
});

describe('auto scaling', () => {
  it('reads the scalable targets of a provisioned table and its indexes, with their target tracking values', () => {
    const join = (table: string, index?: string) => ({ 'Fn::Join': ['', ['table/', { Ref: table }, ...(index ? [`/index/${index}`] : [])]] });
    const target = (resourceId: unknown, dimension: string, min: number, max: number): CfnResource => ({
      Type: 'AWS::ApplicationAutoScaling::ScalableTarget',
      Properties: { ServiceNamespace: 'dynamodb', ResourceId: resourceId, ScalableDimension: dimension, MinCapacity: min, MaxCapacity: max },
    });
    const policy = (targetId: string, value: number): CfnResource => ({
      Type: 'AWS::ApplicationAutoScaling::ScalingPolicy',
      Properties: { PolicyType: 'TargetTrackingScaling', ScalingTargetId: { Ref: targetId }, TargetTrackingScalingPolicyConfiguration: { TargetValue: value } },
    });
    const inv = inventoryOf([
      {
        file: 't',
        resources: {
          TablesUnits: {
            Type: 'AWS::DynamoDB::Table',
            Properties: {
              TableName: 'TrackingPortal-units',
              BillingMode: 'PROVISIONED',
              ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
              GlobalSecondaryIndexes: [
                { IndexName: 'byAccount', Projection: { ProjectionType: 'ALL' }, ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 4 } },
                { IndexName: 'byAccountName', Projection: { ProjectionType: 'INCLUDE' }, ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 2 } },
              ],
            },
          },
          W: target(join('TablesUnits'), 'dynamodb:table:WriteCapacityUnits', 5, 100),
          WP: policy('W', 60),
          R: target('table/TrackingPortal-units', 'dynamodb:table:ReadCapacityUnits', 5, 50),
          IW: target(join('TablesUnits', 'byAccount'), 'dynamodb:index:WriteCapacityUnits', 4, 100),
          IWP: policy('IW', 55),
          Other: target('service/cluster/x', 'ecs:service:DesiredCount', 1, 2),
        },
      },
    ]);
    expect(inv.tables).toEqual([
      {
        name: 'units',
        billingMode: 'PROVISIONED',
        indexes: 2,
        fullIndexes: 1,
        pitr: false,
        tableClass: 'standard',
        provisioned: { rcu: 15, wcu: 11 },
        fullIndexNames: ['byAccount'],
        autoScaling: [
          { kind: 'write', min: 5, max: 100, targetPercent: 60 },
          // No policy: the console's default of 70 %.
          { kind: 'read', min: 5, max: 50, targetPercent: 70 },
          { index: 'byAccount', kind: 'write', min: 4, max: 100, targetPercent: 55 },
        ],
      },
    ]);
  });
});

describe('runsPerMonth', () => {
  it('counts rate and cron schedules in an average month', () => {
    expect(runsPerMonth('rate(1 minute)')).toBeCloseTo(DAYS_PER_MONTH * 1440, 6);
    expect(runsPerMonth('rate(15 minutes)')).toBeCloseTo(DAYS_PER_MONTH * 96, 6);
    expect(runsPerMonth('cron(30 3 * * ? *)')).toBeCloseTo(DAYS_PER_MONTH, 6);
    // Every 10 minutes through the 1st: 144 runs a month.
    expect(runsPerMonth('cron(0/10 * 1 * ? *)')).toBeCloseTo((144 * DAYS_PER_MONTH) / 31, 6);
  });
});

describe('itemSize', () => {
  it('counts names and values as DynamoDB does', () => {
    // "imei" 4 + 15 characters; "ts" 2 + 1764 (4 significant digits: 3 bytes); "ok" 2 + 1.
    expect(itemSize({ imei: '356938035643809', ts: 1_764_000_000_000, ok: true })).toBe(19 + 5 + 3);
    // A map: 3 + per entry 1 + name + value; a list: 3 + per element 1 + value.
    expect(itemSize({ m: { a: 'xy' }, l: [1, 'z'] })).toBe(1 + 3 + 1 + 1 + 2 + (1 + 3 + (1 + 2) + (1 + 1)));
  });
});
