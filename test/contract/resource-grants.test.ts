/**
 * The resource manifest (shared/capability-resources.ts) against the code: every function's
 * bundle uses exactly the tables (with their access) and port operations its entry declares.
 * Using more fails the synth; declaring more fails here. Also the reader itself, on small bundles.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionResources, INGEST_FAILURES, LIVE_AUTHORIZER, type FunctionName } from '../../shared/capability-resources';
import { iotRules } from '../../shared/iot-rules';
import { queueList } from '../../shared/queues';
import { handlerPath, routeList } from '../../shared/routes';
import { compareUsage, readResourceUsage } from '../../infra/bundling/resource-usage';
import { jobs } from '../../infra/jobs';
import type { TrackingPortalStack } from '../../infra/stack';
import { FIXTURES, synth } from '../infra/helpers';

let stack: TrackingPortalStack;

beforeAll(() => {
  ({ stack } = synth());
});

describe('declared resources and the code', () => {
  it('reads the bundle of every deployed function', () => {
    const deployed = new Set<string>([...stack.functions.keys(), 'live-authorizer']);
    expect(new Set(stack.resourceUsage.keys())).toEqual(deployed);
    // Every real handler is deployed, so none of the usage below comes from a stand-in.
    expect(deployed.has('ingest')).toBe(iotRules.length > 0);
    expect(deployed.has('jobs')).toBe(jobs.length > 0);
  });

  it.each(Object.keys(functionResources))('%s: uses exactly what it declares', (name) => {
    const usage = stack.resourceUsage.get(name as FunctionName);
    expect(usage, `${name} is declared but not deployed`).toBeDefined();
    expect(compareUsage(usage!, functionResources[name as FunctionName]!)).toEqual({ undeclared: [], unused: [] });
  });

  it('declares nothing for a capability without deployed routes', () => {
    const deployed = new Set<string>([...routeList.filter((r) => !r.embeddedOnly).map((r) => r.capability), 'ingest', INGEST_FAILURES, ...queueList.map((q) => q.name), 'jobs', LIVE_AUTHORIZER]);
    expect(Object.keys(functionResources).filter((name) => !deployed.has(name))).toEqual([]);
  });

  it('fails the synth when a handler uses a table its function does not declare', () => {
    const undeclared = path.join(FIXTURES, 'undeclared-table-handler.ts');
    expect(() => synth({ ingestHandlers: Object.fromEntries(iotRules.map((r) => [handlerPath(r.handler), undeclared])) })).toThrow(
      /function ingest uses what shared\/capability-resources\.ts does not grant it:\s+table announcements \(read\)/,
    );
  });
});

describe('readResourceUsage', () => {
  const bundle = (modules: Record<string, string>) => Object.entries(modules).map(([file, code]) => `// ${file}\n${code}\n`).join('');

  it('tells reads from writes by the command or transaction item a table name goes into', () => {
    const usage = readResourceUsage(
      bundle({
        'functions/x/repo.ts': [
          'async function a() { await dynamo().send(new GetCommand({ TableName: tableName("users"), Key: {} })); }',
          'async function b() { await dynamo().send(new QueryCommand({ TableName: tableName("units"), IndexName: "byAccount" })); }',
          'async function c() { const TableName = tableName("tokens"); await dynamo().send(new GetCommand({ TableName, Key: {} })); await dynamo().send(new DeleteCommand({ TableName, Key: {} })); }',
          'async function d() { const table = tableName("uniques"); const out = await dynamo().send(new BatchGetCommand2({ RequestItems: { [table]: { Keys: [] } } })); return out.Responses?.[table]; }',
          'async function e() { await dynamo().send(new TransactWriteCommand({ TransactItems: [{ ConditionCheck: { TableName: tableName("accounts") } }, { Update: { TableName: tableName("commands") } }] })); }',
          'async function f() { await batchPut(tableName("positions"), []); }',
        ].join('\n'),
      }),
      { servesMembers: false },
    );
    expect(Object.fromEntries(usage.tables)).toEqual({
      users: 'read',
      units: 'read',
      tokens: 'read-write',
      uniques: 'read',
      accounts: 'read',
      commands: 'read-write',
      positions: 'read-write',
    });
    expect(usage.problems).toEqual([]);
  });

  it('reports a table name it cannot read, and skips the adapters and the generic db module', () => {
    const usage = readResourceUsage(
      bundle({
        'functions/x/repo.ts': 'function put(key) { return { Put: { TableName: tableName(key) } }; }',
        'functions/platform/db.ts': 'function tableName(key) { return physicalTableName(prefix, tables[key]); }',
        'functions/platform/adapters/aws/identity.ts': 'async function x(client) { await client.identity.createUser({}); }',
        'node_modules/lib/index.js': 'tableName("users");',
      }),
      { servesMembers: false },
    );
    expect(usage.tables.size).toBe(0);
    expect(usage.identity.size).toBe(0);
    expect(usage.problems).toEqual([expect.stringContaining('functions/x/repo.ts: tableName(key)')]);
  });

  it('finds the port operations called on the ports, and the session reads only where sessions are resolved', () => {
    const modules = {
      'functions/platform/auth-context.ts': 'async function resolveAuth(token, identity) { await identity.verifyAccessToken(token); await db.send(new GetCommand({ TableName: tableName("tokens") })); }',
      'functions/platform/http.ts': 'async function before() { ctx.auth = await resolveAuth(token, ports.identity); }',
      'functions/x/service.ts': [
        'async function s(ports2) {',
        '  await ports2.identity.createUser({});',
        '  await getPorts().mailer.send({});',
        '  await cache.reverse(ports2.geocoder, 1, 2);',
        '  await ports2.devices.send("1", {});',
        '}',
        'async function publish(live2) { await live2.publish("a", "b", {}); }',
        'async function r(geocoder) { return geocoder.reverse(1, 2, "sv"); }',
      ].join('\n'),
    };
    const publicOnly = readResourceUsage(bundle(modules), { servesMembers: false });
    expect([...publicOnly.identity]).toEqual(['createUser']);
    expect([...publicOnly.geocoder]).toEqual(['reverse']);
    expect({ mail: publicOnly.mail, sms: publicOnly.sms, live: publicOnly.live, devices: publicOnly.devices }).toEqual({ mail: true, sms: false, live: true, devices: true });
    expect(publicOnly.tables.size).toBe(0);
    expect(Object.fromEntries(readResourceUsage(bundle(modules), { servesMembers: true }).tables)).toEqual({ tokens: 'read' });
    const direct = readResourceUsage(bundle({ ...modules, 'functions/y/live.ts': 'async function l(t) { return resolveAuth(t, getPorts().identity); }' }), { servesMembers: false });
    expect(Object.fromEntries(direct.tables)).toEqual({ tokens: 'read' });
  });

  it("counts the middleware's API key tables and the rate limit only for functions serving a route open to keys", () => {
    const modules = {
      'functions/platform/http.ts': 'async function auth(t) { if (route.apiKeyScope) return resolveApiKey(t); }',
      'functions/platform/api-key-auth.ts': [
        'async function resolveApiKey(t) { return dynamo().send(new GetCommand({ TableName: tableName("apiKeys"), Key: {} })); }',
        'async function log(c) { await hitRateLimit("k", 1, 1, now); await dynamo().send(new PutCommand({ TableName: tableName("apiKeyCalls"), Item: c })); }',
      ].join('\n'),
      'functions/platform/rate-limit.ts': 'async function hitRateLimit(k) { return dynamo().send(new UpdateCommand({ TableName: tableName("rateLimits"), Key: { k } })); }',
    };
    expect(Object.fromEntries(readResourceUsage(bundle(modules), { servesMembers: true }).tables)).toEqual({});
    expect(Object.fromEntries(readResourceUsage(bundle(modules), { servesMembers: true, servesApiKeys: true }).tables)).toEqual({
      apiKeys: 'read',
      apiKeyCalls: 'read-write',
      rateLimits: 'read-write',
    });
    const ownLimit = { ...modules, 'functions/x/login.ts': 'async function l() { await consumeRateLimit("a", 5, 60, now); }' };
    expect(Object.fromEntries(readResourceUsage(bundle(ownLimit), { servesMembers: false }).tables)).toEqual({ rateLimits: 'read-write' });
  });

  it('compares with a declaration both ways, naming the file', () => {
    const usage = readResourceUsage(bundle({ 'functions/x/a.ts': 'new PutCommand({ TableName: tableName("users") }); ports.sms.send({});' }), { servesMembers: false });
    expect(compareUsage(usage, { tables: { users: 'read', units: 'read' }, mail: true })).toEqual({
      undeclared: ['table users is written but declared read (functions/x/a.ts)', 'sms (functions/x/a.ts)'],
      unused: ['table units (read)', 'mail'],
    });
  });

  it('reads a Scan as a read that must be declared in `scans` as well', () => {
    const usage = readResourceUsage(bundle({ 'functions/x/m.ts': 'new ScanCommand({ TableName: tableName("trips") }); new QueryCommand({ TableName: tableName("units") });' }), { servesMembers: false });
    expect(Object.fromEntries(usage.tables)).toEqual({ trips: 'read', units: 'read' });
    expect(compareUsage(usage, { tables: { trips: 'read', units: 'read' } })).toEqual({ undeclared: ['scan trips (functions/x/m.ts)'], unused: [] });
    expect(compareUsage(usage, { tables: { trips: 'read', units: 'read' }, scans: ['trips', 'units'] })).toEqual({ undeclared: [], unused: ['scan units'] });
  });
});
