/**
 * The manifests are the single source of truth: every route and table they list is in the
 * synthesized template (unless embedded-only) and served by the embedded runtime, and every
 * handler file a route, IoT rule or job names exists and exports a handler. An entry whose file
 * is missing fails this check and the synth alike (docs/decisions/0014).
 */
import path from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iotRules } from '../../shared/iot-rules';
import { functionResources, type FunctionName } from '../../shared/capability-resources';
import { queueList, type QueueDef, type QueueName } from '../../shared/queues';
import { getPorts } from '../../functions/platform/container';
import { handlerPath, routeKey, routeList } from '../../shared/routes';
import { physicalTableName, tableList } from '../../shared/tables';
import { REPO_ROOT } from '../../infra/bundling/bundle';
import { jobs } from '../../infra/jobs';
import { localDynamoClient } from '../../infra/local/dynamo-local';
import { type EmbeddedRuntime } from '../../infra/local/runtime';
import { manifestHandlers } from '../../infra/stack';
import { FIXTURES, JOB_FIXTURE, STACK_NAME, sharedTemplate, synth } from '../infra/helpers';
import { startRuntime } from '../support/runtime';
import { checkHandlerFiles, handlerFileProblem, routeHandlerProblem, sharedHandlerFiles } from './handler-files';
import { queueFixtureLog } from '../infra/fixtures/queue-handler';

let rt: EmbeddedRuntime;
let template: ReturnType<typeof synth>['template'];

/** A queue that exists only in this test: added to the manifest, it must need no other wiring. */
const TEST_QUEUE: QueueDef = {
  name: 'contract-test-queue',
  file: path.relative(REPO_ROOT, path.join(FIXTURES, 'queue-handler.ts')),
  batchSize: 7,
  maxReceiveCount: 4,
  visibilityTimeoutSeconds: 0,
  retentionSeconds: 3600,
  concurrency: 3,
  description: 'contract test queue',
};

beforeAll(async () => {
  rt = await startRuntime({ seed: false, queues: [...queueList, TEST_QUEUE] });
  template = sharedTemplate();
});
afterAll(async () => {
  await rt?.stop();
});

describe('handler files', () => {
  const entries = manifestHandlers({ routes: routeList, iotRules, jobs, queues: queueList });

  it.each(entries.map((h) => [h.entry, h] as const))('%s: the file exists and exports handler', async (_entry, handler) => {
    expect(await handlerFileProblem(handler)).toBeUndefined();
  });

  it('lists every route, IoT rule and job', () => {
    expect(entries).toHaveLength(routeList.length + iotRules.length + jobs.length + queueList.length);
    for (const rule of iotRules) expect(handlerPath(rule.handler)).toMatch(/^functions\/ingest\/[a-z-]+\.ts$/);
    for (const job of jobs) expect(job.file).toMatch(/^functions\/.+\.ts$/);
  });
});

describe('route handler files', () => {
  it.each(routeList.map((r) => [routeKey(r), r] as const))('%s: the file serves this route', async (_key, route) => {
    expect(await routeHandlerProblem(route)).toBeUndefined();
  });

  it('name one file per route', () => {
    expect(sharedHandlerFiles(routeList)).toEqual([]);
  });

  it("fail when a route names another route's file, or a file not built from a route", async () => {
    const [route, other] = routeList;
    const borrowed = { ...route!, capability: other!.capability, file: other!.file };
    expect(await routeHandlerProblem(borrowed)).toBe(
      `route ${routeKey(borrowed)} (${route!.operationId}): ${handlerPath(other!)} serves ${routeKey(other!)} (${other!.operationId})`,
    );
    const jobFile = { ...route!, capability: 'jobs', file: 'command-timeouts' } as const;
    expect(await routeHandlerProblem(jobFile)).toBe(
      `route ${routeKey(jobFile)} (${route!.operationId}): functions/jobs/command-timeouts.ts is not built by httpHandler from a route entry`,
    );
    expect(sharedHandlerFiles([route!, borrowed, other!])).toEqual([`${handlerPath(other!)} serves ${route!.operationId}, ${other!.operationId}`]);
    expect(sharedHandlerFiles([borrowed, other!], { [handlerPath(other!)]: [other!.operationId, route!.operationId] })).toEqual([]);
  });
});

describe('an entry whose handler file is missing', () => {
  const [route] = routeList.filter((r) => !r.embeddedOnly);
  const [rule] = iotRules;
  const ghostRoute = { ...route!, operationId: 'ghostRoute', path: '/api/v1/ghost', file: 'no-such-handler' };
  const ghostRule = { ...rule!, name: 'ghostRule', handler: { capability: 'ingest', file: 'no-such-handler' } } as const;
  const ghostJob = { name: 'ghost-job', schedule: 'rate(5 minutes)', file: 'functions/jobs/no-such-handler.ts', description: 'missing' };
  const fixture = path.relative(REPO_ROOT, JOB_FIXTURE);

  it('fails the contract check, naming the entry and the file; so does a file without `handler`', async () => {
    const noHandler = path.relative(REPO_ROOT, path.join(FIXTURES, 'no-handler.ts'));
    const problems = await checkHandlerFiles({
      routes: [ghostRoute],
      iotRules: [ghostRule],
      jobs: [ghostJob, { ...ghostJob, name: 'no-export', file: noHandler }, { ...ghostJob, name: 'fine', file: fixture }],
    });
    expect(problems).toEqual([
      `route ${routeKey(ghostRoute)} (shared/routes.ts): functions/${route!.capability}/no-such-handler.ts does not exist`,
      'IoT rule ghostRule (shared/iot-rules.ts): functions/ingest/no-such-handler.ts does not exist',
      'job ghost-job (infra/jobs.ts): functions/jobs/no-such-handler.ts does not exist',
      `job no-export (infra/jobs.ts): ${noHandler} does not export a function \`handler\``,
    ]);
  });

  it('fails the synth, naming the entry and the file', () => {
    expect(() => synth({ routes: [...routeList, ghostRoute] })).toThrow(
      `route ${routeKey(ghostRoute)} (shared/routes.ts): functions/${route!.capability}/no-such-handler.ts`,
    );
    expect(() => synth({ iotRules: [...iotRules, ghostRule] })).toThrow('IoT rule ghostRule (shared/iot-rules.ts): functions/ingest/no-such-handler.ts');
    expect(() => synth({ jobs: [...jobs, ghostJob] })).toThrow('job ghost-job (infra/jobs.ts): functions/jobs/no-such-handler.ts');
    // A stand-in for a rule's handler is held to the same rule.
    expect(() => synth({ ingestHandlers: { [handlerPath(rule!.handler)]: 'test/infra/fixtures/no-such-handler.ts' } })).toThrow(
      `IoT rule ${rule!.name} (shared/iot-rules.ts): test/infra/fixtures/no-such-handler.ts`,
    );
  });
});

describe('route manifest', () => {
  it('deploys exactly the routes that are not embedded-only', () => {
    const deployed = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey,
    );
    const expected = routeList.filter((r) => !r.embeddedOnly).map(routeKey);
    expect([...deployed].sort()).toEqual([...expected].sort());
  });

  it.each(routeList.map((r) => [routeKey(r), r] as const))('%s is served by the embedded runtime', async (_key, route) => {
    const path = route.path.replace(/\{(\w+)\}/g, 'x');
    const res = await fetch(`${rt.url}${path}`, {
      method: route.method,
      headers: { 'content-type': 'application/json' },
      ...(route.method === 'GET' ? {} : { body: '{}' }),
    });
    // The gateway's own 404 means no route matched; anything else came from the handler.
    const body = (await res.json()) as { message?: string };
    expect(res.status === 404 && body.message === 'Not Found').toBe(false);
  });
});

describe('table manifest', () => {
  it('deploys exactly the tables that are not embedded-only', () => {
    const deployed = Object.values(template.findResources('AWS::DynamoDB::Table')).map(
      (t) => (t as { Properties: { TableName: string } }).Properties.TableName,
    );
    const expected = tableList.filter((t) => !t.embeddedOnly).map((t) => physicalTableName(`${STACK_NAME}-`, t));
    expect([...deployed].sort()).toEqual([...expected].sort());
  });

  it.each(tableList.map((t) => [t.name, t] as const))('%s exists in the embedded runtime with its keys and indexes', async (_name, def) => {
    const client = localDynamoClient(rt.dynamo);
    const out = await client.send(new DescribeTableCommand({ TableName: physicalTableName(process.env.TABLE_PREFIX ?? '', def) }));
    client.destroy();
    expect(out.Table?.KeySchema?.find((k) => k.KeyType === 'HASH')?.AttributeName).toBe(def.partitionKey.name);
    expect(out.Table?.KeySchema?.find((k) => k.KeyType === 'RANGE')?.AttributeName).toBe(def.sortKey?.name);
    expect((out.Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort()).toEqual((def.indexes ?? []).map((i) => i.name).sort());
  });
});

describe('queue manifest', () => {
  const queueResources = (t: typeof template) => t.findResources('AWS::SQS::Queue') as Record<string, { Properties: Record<string, unknown> }>;
  let withTest: ReturnType<typeof synth>;
  // Synthesis in a hook, which has the longer time-out.
  beforeAll(() => {
    withTest = synth({
      queues: [...queueList, { ...TEST_QUEUE, visibilityTimeoutSeconds: 60 }],
      // A consumer that uses nothing is granted nothing.
      functionResources: { ...functionResources, [TEST_QUEUE.name as FunctionName]: { tables: {} } },
    });
  });

  it('deploys every queue with its own dead-letter queue, the redrive maxReceiveCount and an event source mapping of its batch size', () => {
    const queues = queueResources(template);
    for (const def of queueList) {
      const [id, queue] = Object.entries(queues).find(([id]) => id.startsWith(`WorkQueues${def.name.replace(/-/g, '')}`) && !/dlq/i.test(id)) ?? [];
      expect(queue, def.name).toBeDefined();
      const redrive = queue!.Properties['RedrivePolicy'] as { maxReceiveCount: number; deadLetterTargetArn: { 'Fn::GetAtt': [string, string] } };
      expect(redrive.maxReceiveCount).toBe(def.maxReceiveCount);
      expect(queues[redrive.deadLetterTargetArn['Fn::GetAtt'][0]]).toBeDefined();
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { EventSourceArn: { 'Fn::GetAtt': [id, 'Arn'] }, BatchSize: def.batchSize });
    }
  });

  it('deploys a queue added to the manifest without further wiring', () => {
    const queues = queueResources(withTest.template);
    const work = withTest.stack.workQueues.queues.get(TEST_QUEUE.name)!;
    const id = withTest.stack.getLogicalId(work.queue.node.defaultChild as never);
    const dlq = withTest.stack.getLogicalId(work.deadLetterQueue.node.defaultChild as never);
    expect(queues[id]!.Properties['RedrivePolicy']).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 4 });
    expect(queues[dlq]).toBeDefined();
    const consumer = withTest.stack.functions.get(TEST_QUEUE.name as FunctionName)!;
    withTest.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: withTest.stack.getLogicalId(consumer.function.node.defaultChild as never) },
      EventSourceArn: { 'Fn::GetAtt': [id, 'Arn'] },
      BatchSize: 7,
      ScalingConfig: { MaximumConcurrency: 3 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // The real manifest does not have it.
    expect(template.toJSON()['Resources'][id]).toBeUndefined();
  });

  it('a queue added to the manifest is consumed by the embedded runtime, a failed message handed out again', async () => {
    const log = queueFixtureLog();
    log.received.length = 0;
    const queues = getPorts().queues;
    await queues.send(TEST_QUEUE.name as QueueName, { n: 1 });
    await queues.send(TEST_QUEUE.name as QueueName, { n: 2, fail: true });
    await rt.queues.drained();
    expect(log.received).toEqual(
      expect.arrayContaining([
        { body: { n: 1 }, receiveCount: '1' },
        { body: { n: 2, fail: true }, receiveCount: '1' },
        { body: { n: 2, fail: true }, receiveCount: '2' },
      ]),
    );
    expect(log.received).toHaveLength(3);
    expect(rt.queues.deadLetters(TEST_QUEUE.name)).toEqual([]);
  });

  it('the embedded runtime has every queue of the manifest', () => {
    for (const def of queueList) expect(rt.queues.depth(def.name), def.name).toBe(0);
  });
});
