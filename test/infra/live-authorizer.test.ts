/**
 * The live channel's custom authorizer construct in a bare stack: the IoT authorizer with signing
 * disabled, its function bundled from functions/live/authorize.ts, IoT Core allowed to invoke it
 * only through this authorizer, reserved concurrency, with its declared grants bound (key reads
 * of users and tokens, nothing else), and cdk-nag clean.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionResources, resolveFunctionSettings, TIMEOUT_LIMITS } from '../../shared/capability-resources';
import { bundleAll } from '../../infra/bundling/bundle';
import { DataTables } from '../../infra/constructs/data-tables';
import {
  LIVE_AUTHORIZER_FUNCTION,
  LIVE_AUTHORIZER_RESERVED_CONCURRENCY,
  LiveAuthorizer,
  liveAuthorizerBundle,
  liveAuthorizerName,
} from '../../infra/constructs/live-authorizer';
import { DYNAMODB_READ_ACTIONS, DYNAMODB_WRITE_ACTIONS, bindResources } from '../../infra/constructs/resource-grants';
import { asArray, policyStatements, scratchOutdir } from './helpers';

const ENVIRONMENT = {
  RUNTIME: 'aws',
  APP_URL: 'https://portal.example.se',
  USER_POOL_ID: 'eu-north-1_abc',
  USER_POOL_CLIENT_ID: 'client',
  MAIL_FROM: 'no-reply@example.se',
  IOT_DATA_ENDPOINT: 'a1b2c3-ats.iot.eu-north-1.amazonaws.com',
};

// CloudFormation JSON, checked by shape below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let app: App;
let stack: Stack;
let live: LiveAuthorizer;
let template: Template;
let codeDir: string;

beforeAll(() => {
  codeDir = bundleAll(scratchOutdir(), [liveAuthorizerBundle()]).get(LIVE_AUTHORIZER_FUNCTION) ?? '';
  app = new App({ outdir: scratchOutdir() });
  stack = new Stack(app, 'LiveTest', { env: { region: 'eu-north-1' } });
  const data = new DataTables(stack, 'Tables', { prefix: 'LiveTest-' });
  live = new LiveAuthorizer(stack, 'LiveAuthorizer', {
    authorizerName: liveAuthorizerName(stack.stackName),
    codeDir,
    environment: ENVIRONMENT,
  });
  const declared = functionResources[LIVE_AUTHORIZER_FUNCTION];
  if (!declared) throw new Error('the live authorizer has no entry in shared/capability-resources.ts');
  bindResources(live.function, declared, {
    tables: data.byName,
    tableNames: data.physicalNames,
    userPoolArn: 'arn:aws:cognito-idp:eu-north-1:123456789012:userpool/eu-north-1_abc',
    mailIdentityArns: [],
    geoPlacesProviderArn: 'arn:aws:geo-places:eu-north-1::provider/default',
  });
  template = Template.fromStack(stack);
});

const functionId = () => stack.getLogicalId(live.function.function.node.defaultChild as CfnFunction);

describe('LiveAuthorizer', () => {
  it('is an active IoT custom authorizer with signing disabled, backed by its function', () => {
    const fnId = functionId();
    template.resourceCountIs('AWS::IoT::Authorizer', 1);
    template.hasResourceProperties('AWS::IoT::Authorizer', {
      AuthorizerName: 'LiveTest-live',
      SigningDisabled: true,
      Status: 'ACTIVE',
      AuthorizerFunctionArn: { 'Fn::GetAtt': [fnId, 'Arn'] },
    });
    expect(liveAuthorizerName('My.Stack')).toBe('My_Stack-live');
  });

  it('lets IoT Core invoke the function only through this authorizer', () => {
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission')) as Json[];
    expect(permissions).toHaveLength(1);
    expect(permissions[0].Properties).toEqual({
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [functionId(), 'Arn'] },
      Principal: 'iot.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [stack.getLogicalId(live.authorizer), 'Arn'] },
      SourceAccount: { Ref: 'AWS::AccountId' },
    });
  });

  it('runs the bundled handler on nodejs24.x within the 5 s IoT Core waits, with reserved concurrency and the environment given', () => {
    const fn = template.findResources('AWS::Lambda::Function')[functionId()] as Json;
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: resolveFunctionSettings(LIVE_AUTHORIZER_FUNCTION).timeoutSeconds,
      TracingConfig: { Mode: 'Active' },
      ReservedConcurrentExecutions: LIVE_AUTHORIZER_RESERVED_CONCURRENCY,
    });
    expect(fn.Properties.Timeout).toBeLessThanOrEqual(TIMEOUT_LIMITS.authorizer);
    expect(fn.Properties.Environment.Variables).toMatchObject({ ...ENVIRONMENT, TABLES: JSON.stringify({ users: 'LiveTest-users', tokens: 'LiveTest-tokens', accounts: 'LiveTest-accounts' }) });
  });

  it('may read users and sessions by key, and mark an account as watched, and nothing else of the data', () => {
    const data = policyStatements(template).filter(({ statement }) => asArray(statement['Action'] as string | string[]).some((a) => a.startsWith('dynamodb:')));
    const tableOf = (resource: unknown) => JSON.stringify(resource).match(/"(Tables[A-Za-z]+?)[0-9A-F]{8}"/)?.[1];
    const byTable = new Map<string, string[]>();
    for (const { statement } of data) {
      for (const resource of asArray(statement['Resource'] as unknown)) {
        const table = tableOf(resource) ?? JSON.stringify(resource);
        byTable.set(table, [...(byTable.get(table) ?? []), ...asArray(statement['Action'] as string | string[])]);
      }
    }
    // Users and sessions read only; the accounts item written for the watch mark (decision 0051).
    expect([...byTable.keys()].sort()).toEqual(['TablesAccounts', 'TablesTokens', 'TablesUsers']);
    for (const table of ['TablesUsers', 'TablesTokens']) expect([...new Set(byTable.get(table))].sort()).toEqual([...DYNAMODB_READ_ACTIONS].sort());
    expect([...new Set(byTable.get('TablesAccounts'))].sort()).toEqual([...DYNAMODB_READ_ACTIONS, ...DYNAMODB_WRITE_ACTIONS].sort());
    const actions = policyStatements(template).flatMap(({ statement }) => asArray(statement['Action'] as string | string[]));
    expect(actions.filter((a) => !/^(dynamodb:(GetItem|BatchGetItem|Query|ConditionCheckItem|PutItem|UpdateItem|DeleteItem|BatchWriteItem|PartiQLUpdate)$|logs:|xray:|sts:AssumeRole$)/.test(a))).toEqual([]);
  });

  it('passes cdk-nag AwsSolutions', () => {
    app.synth();
    const report = new AwsSolutionsChecks(app, { verbose: true }).validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });

  it('bundles functions/live/authorize.ts, which refuses a connection without credentials', async () => {
    const mod = (await import(pathToFileURL(path.join(codeDir, 'index.mjs')).href)) as {
      handler: (event: unknown, context: unknown) => Promise<{ isAuthenticated: boolean; policyDocuments: unknown[] }>;
    };
    const res = await mod.handler({ protocolData: { mqtt: { username: 'x' } } }, { invokedFunctionArn: 'arn:aws:lambda:eu-north-1:123456789012:function:f' });
    expect(res).toMatchObject({ isAuthenticated: false, policyDocuments: [] });
  });
});
