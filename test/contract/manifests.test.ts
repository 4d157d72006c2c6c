/**
 * The manifests are the single source of truth: every route and table they list is in the
 * synthesized template (unless embedded-only) and served by the embedded runtime, and every
 * handler file they name exists and exports a handler.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iotRules } from '../../shared/iot-rules';
import { handlerPath, routeKey, routeList } from '../../shared/routes';
import { physicalTableName, tableList } from '../../shared/tables';
import { jobs } from '../../infra/jobs';
import { localDynamoClient } from '../../infra/local/dynamo-local';
import { projectRoot, type EmbeddedRuntime } from '../../infra/local/runtime';
import { STACK_NAME, synth } from '../infra/helpers';
import { startRuntime } from '../support/runtime';

let rt: EmbeddedRuntime;
let template: ReturnType<typeof synth>['template'];

beforeAll(async () => {
  rt = await startRuntime({ seed: false });
  template = synth().template;
});
afterAll(async () => {
  await rt?.stop();
});

describe('route manifest', () => {
  it.each(routeList.map((r) => [routeKey(r), r] as const))('%s has a handler file exporting handler', async (_key, route) => {
    const file = join(projectRoot, handlerPath(route));
    expect(existsSync(file), file).toBe(true);
    const mod = (await import(file)) as { handler?: unknown };
    expect(typeof mod.handler).toBe('function');
  });

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

describe('other manifests', () => {
  it('names only handler files of the ingest capability for IoT rules and .ts files for jobs', () => {
    for (const rule of iotRules) expect(handlerPath(rule.handler)).toMatch(/^functions\/ingest\/[a-z-]+\.ts$/);
    for (const job of jobs) expect(job.file).toMatch(/^functions\/.+\.ts$/);
  });
});
