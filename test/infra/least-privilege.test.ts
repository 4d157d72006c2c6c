/**
 * Least privilege per function in the synthesized stack: each function's role and its TABLES
 * variable hold exactly what shared/capability-resources.ts declares for it, nothing is shared
 * between functions, and the public functions cannot reset passwords, send SMS or command
 * trackers. Also the Cognito app client's attribute permissions and the live authorizer's
 * reserved concurrency.
 */
import type { Construct } from 'constructs';
import { Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionResources, LIVE_AUTHORIZER, type FunctionName, type FunctionResources, type TableAccess } from '../../shared/capability-resources';
import { tables, type TableKey } from '../../shared/tables';
import { IDENTITY_OPERATION_ACTIONS } from '../../infra/constructs/identity';
import { LIVE_AUTHORIZER_RESERVED_CONCURRENCY } from '../../infra/constructs/live-authorizer';
import type { PortalFunction } from '../../infra/constructs/portal-function';
import { AUTOPLAN_SECRET_ACTIONS, VAPID_SECRET_ACTIONS, DYNAMODB_SCAN_ACTIONS, fileGrantsOf, GEOCODER_OPERATION_ACTIONS, TABLE_ACCESS_ACTIONS } from '../../infra/constructs/resource-grants';
import type { TrackingPortalStack } from '../../infra/stack';
import { FULL_STACK, STACK_NAME, asArray, synth } from './helpers';

// CloudFormation JSON, checked by shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let stack: TrackingPortalStack;
let json: { Resources: Record<string, Json> };

beforeAll(() => {
  // The full stack: with stand-in ingest handlers, so that the ingest function is deployed too.
  const fx = synth(FULL_STACK);
  stack = fx.stack;
  json = fx.template.toJSON() as typeof json;
});

function deployedFunctions(): [FunctionName, PortalFunction][] {
  return [...(stack.functions as Map<FunctionName, PortalFunction>), [LIVE_AUTHORIZER, stack.liveAuthorizer.function]];
}

/** Every Allow statement on the function's role (its default policy, and any policy attached to it). */
function statementsOf(fn: PortalFunction): Json[] {
  const roleId = stack.getLogicalId(fn.role.node.defaultChild as never);
  const role = json.Resources[roleId];
  expect(role.Properties.ManagedPolicyArns ?? []).toEqual([]);
  const out: Json[] = [...(role.Properties.Policies ?? []).flatMap((p: Json) => p.PolicyDocument.Statement)];
  for (const res of Object.values(json.Resources)) {
    if (res.Type !== 'AWS::IAM::Policy' && res.Type !== 'AWS::IAM::ManagedPolicy') continue;
    if (!asArray(res.Properties.Roles).some((r: Json) => r?.Ref === roleId)) continue;
    out.push(...res.Properties.PolicyDocument.Statement);
  }
  return out.filter((s) => s.Effect === 'Allow');
}

const tableLogicalIds = () =>
  new Map([...stack.tables.byName].map(([name, table]) => [stack.getLogicalId(table.node.defaultChild as never), name] as const));

/** Table (manifest key) -> actions granted on it, from the role's statements. */
function tableGrants(statements: Json[]): Map<TableKey, Set<string>> {
  const byLogicalId = tableLogicalIds();
  const keyOf = (name: string) => (Object.keys(tables) as TableKey[]).find((k) => tables[k].name === name)!;
  const out = new Map<TableKey, Set<string>>();
  for (const st of statements) {
    for (const resource of asArray(st.Resource)) {
      const id = resource?.['Fn::GetAtt']?.[0] ?? resource?.['Fn::Join']?.[1]?.[0]?.['Fn::GetAtt']?.[0];
      const name = byLogicalId.get(id);
      if (!name) continue;
      const actions = out.get(keyOf(name)) ?? new Set<string>();
      for (const a of asArray(st.Action)) actions.add(a as string);
      out.set(keyOf(name), actions);
    }
  }
  return out;
}

/**
 * Besides tables, logs and tracing, what comes with a function's wiring rather than its code, on
 * those resources only: the ingest stream's event source mapping reads the stream and sends failed
 * batches to the failure queue; the failures function reads that queue and the stream; an
 * asynchronous function sends to the dead-letter queue; each queue's consumer reads its work
 * queue (sending to one is the `queues` or `alerts` port, checked below).
 */
const streamReading = (st: Json): boolean => {
  const ids = [stack.ingestRules?.stream, stack.ingestRules?.consumer].filter(Boolean).map((c) => stack.getLogicalId(c!.node.defaultChild as never));
  const resources = JSON.stringify(st.Resource);
  return asArray(st.Action).every((a) => /^kinesis:/.test(a as string)) && ids.some((id) => resources.includes(id));
};
const queueWiring = (st: Json): boolean => {
  const arn = (queue: Construct | undefined) => queue && JSON.stringify({ 'Fn::GetAtt': [stack.getLogicalId(queue.node.defaultChild as never), 'Arn'] });
  const resource = JSON.stringify(st.Resource);
  const actions = asArray(st.Action) as string[];
  const sending = actions.every((a) => /^sqs:(SendMessage|GetQueueAttributes|GetQueueUrl)$/.test(a));
  const receiving = actions.every((a) => /^sqs:(ReceiveMessage|ChangeMessageVisibility|GetQueueUrl|DeleteMessage|GetQueueAttributes)$/.test(a));
  return (
    (sending && [arn(stack.deadLetterQueue), arn(stack.ingestRules?.failureQueue)].includes(resource)) ||
    (receiving && [arn(stack.ingestRules?.failureQueue), ...[...stack.workQueues.queues.values()].map((q) => arn(q.queue))].includes(resource))
  );
};
/** A statement on a work queue: a consumer that also sends to its own queue (retries later) gets one statement of both. */
const onWorkQueue = (st: Json): boolean =>
  [...stack.workQueues.queues.values()].some((q) => JSON.stringify(st.Resource) === JSON.stringify({ 'Fn::GetAtt': [stack.getLogicalId(q.queue.node.defaultChild as never), 'Arn'] }));
const otherActions = (statements: Json[]) => {
  const own = statements.filter((st) => !streamReading(st) && !queueWiring(st));
  // What is left on a work queue after its consumer's wiring (receiving) must come from the `queues` port.
  const actions = own.flatMap((st) => (asArray(st.Action) as string[]).filter((a) => !(onWorkQueue(st) && /^sqs:(ReceiveMessage|ChangeMessageVisibility|DeleteMessage)$/.test(a))));
  return new Set(actions.filter((a) => !/^(dynamodb|logs|xray):/.test(a)));
};

/** What the declaration should turn into, besides tables, logs and tracing. */
function expectedActions(declared: FunctionResources): Set<string> {
  return new Set([
    ...(declared.identity ?? []).flatMap((op) => IDENTITY_OPERATION_ACTIONS[op]),
    ...(declared.geocoder ?? []).flatMap((op) => GEOCODER_OPERATION_ACTIONS[op]),
    ...(declared.mail ? ['ses:SendEmail'] : []),
    ...(declared.sms ? ['sns:Publish'] : []),
    ...(declared.live || declared.devices ? ['iot:Publish'] : []),
    ...(declared.alerts || declared.queues?.length ? ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'] : []),
    ...fileGrantsOf(declared, 'declared').flatMap((g) => g.actions),
    ...(declared.autoplan ? AUTOPLAN_SECRET_ACTIONS : []),
    ...(declared.webPush ? VAPID_SECRET_ACTIONS : []),
  ]);
}

function environmentOf(fn: PortalFunction): Record<string, Json> {
  return json.Resources[stack.getLogicalId(fn.function.node.defaultChild as CfnFunction)].Properties.Environment.Variables;
}

describe('each function gets exactly what shared/capability-resources.ts declares', () => {
  it('has an entry for every deployed function and no shared policy', () => {
    for (const [name] of deployedFunctions()) expect(functionResources[name], name).toBeDefined();
    expect(Object.values(json.Resources).filter((r) => r.Type === 'AWS::IAM::ManagedPolicy' && /portal functions/i.test(r.Properties.Description ?? ''))).toEqual([]);
  });

  it.each(Object.keys(functionResources))('%s: its tables with the actions of their access, on the table and its indexes only', (name) => {
    const entry = deployedFunctions().find(([n]) => n === name);
    if (!entry) return; // declared ahead of its first route or handler
    const [, fn] = entry;
    const declared = functionResources[name as FunctionName]!;
    const grants = tableGrants(statementsOf(fn));
    expect([...grants.keys()].sort()).toEqual(Object.keys(declared.tables).sort());
    for (const [key, access] of Object.entries(declared.tables) as [TableKey, TableAccess][]) {
      const scanned = declared.scans?.includes(key) ? DYNAMODB_SCAN_ACTIONS : [];
      expect([...grants.get(key)!].sort(), `${name}: ${key}`).toEqual([...TABLE_ACCESS_ACTIONS[access], ...scanned].sort());
    }
    // The names its handlers can look up are exactly the granted tables.
    const bound = JSON.parse(environmentOf(fn)['TABLES']) as Record<string, string>;
    expect(bound).toEqual(Object.fromEntries(Object.keys(declared.tables).map((k) => [k, `${STACK_NAME}-${tables[k as TableKey].name}`])));
  });

  it.each(Object.keys(functionResources))('%s: no other action than its declared ports need', (name) => {
    const entry = deployedFunctions().find(([n]) => n === name);
    if (!entry) return;
    expect([...otherActions(statementsOf(entry[1]))].sort()).toEqual([...expectedActions(functionResources[name as FunctionName]!)].sort());
  });

  it('grants table access by ARN (and index ARN) only, Scan only on a table the function declares in `scans` (no index), never a wildcard', () => {
    const byLogicalId = tableLogicalIds();
    for (const [name, fn] of deployedFunctions()) {
      const scans: readonly TableKey[] = functionResources[name as FunctionName]?.scans ?? [];
      const scanned: (TableKey | undefined)[] = [];
      for (const st of statementsOf(fn)) {
        const actions = asArray(st.Action) as string[];
        if (actions.includes('dynamodb:Scan')) {
          expect(actions, name).toEqual([...DYNAMODB_SCAN_ACTIONS]);
          scanned.push(
            ...asArray(st.Resource).map((r) => {
              expect(r?.['Fn::GetAtt']?.[1], `${name}: Scan on a table ARN only`).toBe('Arn');
              return (Object.keys(tables) as TableKey[]).find((k) => tables[k].name === byLogicalId.get(r?.['Fn::GetAtt']?.[0]));
            }),
          );
        }
        if (!actions.some((a) => a.startsWith('dynamodb:'))) continue;
        for (const resource of asArray(st.Resource)) expect(JSON.stringify(resource), name).not.toMatch(/\*|"\*"/);
      }
      expect(scanned.sort(), name).toEqual([...scans].sort());
    }
  });

  it('scopes mail to the sender identity, Cognito to the pool, Location to provider/default, IoT to the live and command topics', () => {
    const bySid = (fn: PortalFunction, sid: string) => statementsOf(fn).find((s) => s.Sid === sid);
    const auth = stack.functions.get('auth')!;
    expect(JSON.stringify(bySid(auth, 'SendMailAsMailFrom')?.Resource)).toContain(':identity/example.com');
    expect(bySid(auth, 'Identity')?.Resource).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/UserPool/), 'Arn'] });
    expect(bySid(stack.functions.get('tracking')!, 'Geocode')?.Resource).toBe(`arn:aws:geo-places:${Stack.of(stack).region}::provider/default`);
    const topics = JSON.stringify(bySid(stack.functions.get('units')!, 'PublishLiveAndCommands')?.Resource);
    expect(topics).toContain(':topic/live/*/units/*');
    expect(topics).toContain(':topic/trackers/*/commands');
    // Ingest publishes live and sends the theft-mode command; the jobs publish live only.
    expect(JSON.stringify(bySid(stack.functions.get('ingest')!, 'PublishLiveAndCommands')?.Resource)).toContain(':topic/trackers/*/commands');
    expect(JSON.stringify(bySid(stack.functions.get('jobs')!, 'PublishLive')?.Resource)).not.toContain('commands');
  });
});

describe('the Web Push VAPID seed', () => {
  it('is read by the functions that declare webPush only, from the one secret the stack creates, named to them', () => {
    const declaring = deployedFunctions().filter(([name]) => functionResources[name]?.webPush);
    expect(declaring.map(([name]) => name).sort()).toEqual(['alert-delivery', 'push']);
    const seeds = Object.entries(json.Resources).filter(([id, r]) => r.Type === 'AWS::SecretsManager::Secret' && id.startsWith('WebPushVapidSeed'));
    expect(seeds).toHaveLength(1);
    const [seedId] = seeds[0]!;
    for (const [name, fn] of deployedFunctions()) {
      const reads = statementsOf(fn).filter((st) => st.Sid === 'ReadVapidSeed');
      if (!functionResources[name]?.webPush) {
        expect(reads, name).toEqual([]);
        expect(environmentOf(fn)['VAPID_SECRET_ARN'], name).toBeUndefined();
        continue;
      }
      expect(asArray(reads[0]?.Action), name).toEqual([...VAPID_SECRET_ACTIONS]);
      expect(JSON.stringify(reads[0]?.Resource), name).toContain(seedId);
      expect(JSON.stringify(environmentOf(fn)['VAPID_SECRET_ARN']), name).toContain('VapidSeed');
    }
  });
});

describe('Autoplan secrets', () => {
  it('grants read on the accounts\' secret prefix to the functions that declare autoplan, names the prefix to them, and puts no Autoplan secret in the template', () => {
    const prefix = `${STACK_NAME}/autoplan/`;
    const declaring = deployedFunctions().filter(([name]) => functionResources[name]?.autoplan);
    expect(declaring.map(([name]) => name).sort()).toEqual(['jobs', 'reports']);
    for (const [name, fn] of deployedFunctions()) {
      const reads = statementsOf(fn).filter((st) => st.Sid !== 'ReadVapidSeed' && (asArray(st.Action) as string[]).some((a) => a.startsWith('secretsmanager:')));
      if (!functionResources[name]?.autoplan) {
        expect(reads, name).toEqual([]);
        expect(environmentOf(fn)['AUTOPLAN_SECRET_PREFIX'], name).toBeUndefined();
        continue;
      }
      expect(reads.map((st) => st.Sid), name).toEqual(['ReadAutoplanSecrets']);
      expect(asArray(reads[0].Action), name).toEqual([...AUTOPLAN_SECRET_ACTIONS]);
      const resource = JSON.stringify(reads[0].Resource);
      expect(resource, name).toContain(`:secretsmanager:${Stack.of(stack).region}:`);
      expect(resource, name).toContain(`:secret:${prefix}*"`);
      expect(environmentOf(fn)['AUTOPLAN_SECRET_PREFIX'], name).toBe(prefix);
    }
    // The stack creates no Autoplan secret (its only secret is the origin secret): values never pass through a template.
    const secrets = Object.values(json.Resources).filter((r) => r.Type === 'AWS::SecretsManager::Secret');
    expect(secrets.filter((r) => JSON.stringify(r).includes('autoplan'))).toEqual([]);
    expect(JSON.stringify(json)).not.toMatch(/"(token|customerNumber)"/);
  });
});

describe('the public functions', () => {
  const forbidden = ['cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminUserGlobalSignOut', 'sns:Publish', 'iot:Publish'];

  it.each(['registration', 'content'])('%s cannot reset a password, sign anybody out, send SMS or command trackers', (name) => {
    const actions = statementsOf(stack.functions.get(name)!).flatMap((st) => asArray(st.Action) as string[]);
    for (const action of forbidden) expect(actions, `${name}: ${action}`).not.toContain(action);
  });

  it('registration creates and removes users, and nothing more of Cognito', () => {
    const actions = statementsOf(stack.functions.get('registration')!).flatMap((st) => asArray(st.Action) as string[]).filter((a) => a.startsWith('cognito-idp:'));
    expect(actions.sort()).toEqual([...IDENTITY_OPERATION_ACTIONS.createUser].sort());
  });

  it('registration touches only its declared tables; content only reads announcements', () => {
    expect([...tableGrants(statementsOf(stack.functions.get('registration')!)).keys()].sort()).toEqual(
      ['accounts', 'inventory', 'rateLimits', 'uniques', 'units', 'users'].sort(),
    );
    const content = tableGrants(statementsOf(stack.functions.get('content')!));
    expect([...content.keys()]).toEqual(['announcements']);
    expect([...content.get('announcements')!].sort()).toEqual([...TABLE_ACCESS_ACTIONS.read].sort());
  });
});

describe('Cognito app client', () => {
  it('lets a user write no attribute but email through Cognito directly, and read only what the portal needs', () => {
    const [client] = Object.values(json.Resources).filter((r) => r.Type === 'AWS::Cognito::UserPoolClient');
    expect(client.Properties.WriteAttributes).toEqual(['email']);
    expect([...client.Properties.ReadAttributes].sort()).toEqual(['email', 'email_verified', 'preferred_username']);
  });
});

describe('live authorizer', () => {
  it('has reserved concurrency', () => {
    const fn = json.Resources[stack.getLogicalId(stack.liveAuthorizer.function.function.node.defaultChild as CfnFunction)];
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(LIVE_AUTHORIZER_RESERVED_CONCURRENCY);
  });
});
