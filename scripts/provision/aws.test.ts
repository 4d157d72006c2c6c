/**
 * `npm run provision -- --stack <name>`: the exact CloudFormation, IoT and DynamoDB calls (the
 * AWS clients are mocked, everything else is real: argument parsing, files, report, exit code).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeThingCommand,
  IoTClient,
  ListThingPrincipalsCommand,
  ResourceNotFoundException,
  ThrottlingException,
} from '@aws-sdk/client-iot';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AMAZON_ROOT_CA_URL } from './aws';
import { runProvision } from './run';

const STACK = 'TrackingPortal-dev';
const RULE_PREFIX = 'TrackingPortal_dev';
const TABLE = 'TrackingPortal-dev-inventory';
const POLICY = 'TrackingPortal-dev-tracker';
const ENDPOINT = 'a1b2c3-ats.iot.eu-north-1.amazonaws.com';
const A = '356938035643809';
const B = '490154203237518';
const NOW = new Date('2026-03-02T08:00:00.000Z');
const certArn = (id: string) => `arn:aws:iot:eu-north-1:123456789012:cert/${id}`;

const cfn = mockClient(CloudFormationClient);
const iot = mockClient(IoTClient);
const ddb = mockClient(DynamoDBDocumentClient);

const root = mkdtempSync(join(tmpdir(), 'provision-aws-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let out: string;
let issued: Array<{ id: string; pem: string; key: string }>;

function stackAnswers(outputs: Record<string, string>) {
  cfn.on(DescribeStacksCommand, { StackName: STACK }).resolves({
    Stacks: [
      {
        StackName: STACK,
        StackStatus: 'UPDATE_COMPLETE',
        CreationTime: NOW,
        Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
      },
    ],
  });
}

beforeEach(() => {
  vi.stubEnv('AWS_REGION', 'eu-north-1');
  cfn.reset();
  iot.reset();
  ddb.reset();
  out = mkdtempSync(join(root, 'certs-'));
  issued = [];
  stackAnswers({ InventoryTable: TABLE, TrackerPolicyName: POLICY, IotDataEndpoint: ENDPOINT, ApiUrl: 'https://x' });
  iot.on(DescribeThingCommand).rejects(new ResourceNotFoundException({ message: 'not found', $metadata: {} }));
  iot.on(CreateThingCommand).callsFake((input: { thingName: string }) => ({ thingName: input.thingName }));
  iot.on(CreateKeysAndCertificateCommand).callsFake(() => {
    const id = randomBytes(32).toString('hex');
    const cert = { id, pem: `-----BEGIN CERTIFICATE-----\n${id}\n-----END CERTIFICATE-----\n`, key: `-----BEGIN RSA PRIVATE KEY-----\n${randomBytes(16).toString('hex')}\n-----END RSA PRIVATE KEY-----\n` };
    issued.push(cert);
    return { certificateId: id, certificateArn: certArn(id), certificatePem: cert.pem, keyPair: { PrivateKey: cert.key, PublicKey: 'public' } };
  });
  iot.on(AttachThingPrincipalCommand).resolves({});
  iot.on(AttachPolicyCommand).resolves({});
  ddb.on(PutCommand).resolves({});
});

async function provision(argv: string[]) {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runProvision(['--stack', STACK, '--out', out, ...argv], { out: (l) => lines.push(l), err: (l) => errors.push(l) }, {
    now: () => NOW,
    cwd: root,
  });
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

const iotCalls = () => iot.calls().map((c) => [c.args[0].constructor.name, c.args[0].input]);
const mode = (path: string) => statSync(path).mode & 0o777;

describe('provision into a deployed stack', () => {
  it('reads the stack outputs, creates thing and certificate, attaches both, writes the files, then the inventory item', async () => {
    const run = await provision([A]);
    expect(run.code).toBe(0);
    expect(cfn.calls().map((c) => c.args[0].input)).toEqual([{ StackName: STACK }]);

    const [cert] = issued;
    expect(issued).toHaveLength(1);
    expect(iotCalls()).toEqual([
      ['DescribeThingCommand', { thingName: A }],
      ['CreateThingCommand', { thingName: A }],
      ['CreateKeysAndCertificateCommand', { setAsActive: true }],
      ['AttachThingPrincipalCommand', { thingName: A, principal: certArn(cert!.id) }],
      ['AttachPolicyCommand', { policyName: POLICY, target: certArn(cert!.id) }],
    ]);
    expect(ddb.commandCalls(PutCommand).map((c) => c.args[0].input)).toEqual([
      {
        TableName: TABLE,
        Item: { imei: A, registered: false, provisionedAt: NOW.toISOString() },
        ConditionExpression: 'attribute_not_exists(imei)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    ]);

    const dir = join(out, A);
    const certFile = `${cert!.id}-certificate.pem.crt`;
    const keyFile = `${cert!.id}-private.pem.key`;
    expect(readdirSync(dir).sort()).toEqual([certFile, keyFile, 'connection.json'].sort());
    expect(readFileSync(join(dir, certFile), 'utf8')).toBe(cert!.pem);
    expect(readFileSync(join(dir, keyFile), 'utf8')).toBe(cert!.key);
    expect(mode(join(dir, keyFile))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(JSON.parse(readFileSync(join(dir, 'connection.json'), 'utf8'))).toEqual({
      endpoint: ENDPOINT,
      port: 8883,
      clientId: A,
      thingName: A,
      certificateId: cert!.id,
      certificateArn: certArn(cert!.id),
      certificate: certFile,
      privateKey: keyFile,
      rootCa: AMAZON_ROOT_CA_URL,
      topics: {
        telemetry: `$aws/rules/${RULE_PREFIX}_trackerTelemetry/trackers/${A}/telemetry`,
        ack: `$aws/rules/${RULE_PREFIX}_commandAck/trackers/${A}/ack`,
        teltonikaData: `$aws/rules/${RULE_PREFIX}_teltonikaData/${A}/data`,
        commands: `trackers/${A}/commands`,
      },
    });
    expect(run.out).toContain(`publishes positions to $aws/rules/${RULE_PREFIX}_trackerTelemetry/trackers/${A}/telemetry`);
    expect(run.out).toContain(`publishes command answers to $aws/rules/${RULE_PREFIX}_commandAck/trackers/${A}/ack`);
    expect(run.out).toContain(`receives commands on trackers/${A}/commands`);

    expect(run.out).toContain(`into stack ${STACK} (table ${TABLE}, IoT policy ${POLICY})`);
    expect(run.out).toMatch(new RegExp(`${A}\\s+thing created; certificate ${cert!.id} issued; added to the inventory`));
    expect(run.out).toContain(`files in ${out.slice(root.length + 1)}/${A}/: ${certFile}, ${keyFile} (private key, mode 0600), connection.json`);
    expect(run.out).toContain(`Trackers connect to ${ENDPOINT}:8883 with their IMEI as client id; root CA: ${AMAZON_ROOT_CA_URL}`);
  });

  it('skips an invalid IMEI (no AWS call for it), provisions the others and exits 1', async () => {
    const run = await provision([A, '12345', B]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/12345\s+skipped: not a valid IMEI/);
    expect(iot.commandCalls(CreateThingCommand).map((c) => c.args[0].input.thingName)).toEqual([A, B]);
    expect(ddb.commandCalls(PutCommand).map((c) => c.args[0].input.Item?.['imei'])).toEqual([A, B]);
    const thingNames = iot.calls().map((c) => (c.args[0].input as { thingName?: string }).thingName);
    expect(new Set(thingNames.filter(Boolean))).toEqual(new Set([A, B]));
  });

  it('re-runs idempotently: keeps the thing and its certificate, re-attaches the policy, reports the inventory item', async () => {
    const existing = randomBytes(32).toString('hex');
    iot.on(DescribeThingCommand).resolves({ thingName: A });
    iot.on(ListThingPrincipalsCommand, { thingName: A }).resolves({
      principals: [certArn(existing), 'arn:aws:cognito-identity:eu-north-1:123456789012:identitypool/x'],
    });
    ddb.on(PutCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        Item: { imei: { S: A }, registered: { BOOL: true }, provisionedAt: { S: '2025-12-01T10:00:00.000Z' } },
      }),
    );

    const run = await provision([A]);
    expect(run.code).toBe(0);
    expect(iotCalls()).toEqual([
      ['DescribeThingCommand', { thingName: A }],
      ['ListThingPrincipalsCommand', { thingName: A }],
      ['AttachPolicyCommand', { policyName: POLICY, target: certArn(existing) }],
    ]);
    expect(issued).toHaveLength(0);
    expect(readdirSync(out)).toEqual([]);
    expect(run.out).toMatch(
      new RegExp(`${A}\\s+thing exists; certificate ${existing} kept \\(--new-certificate issues another\\); already in the inventory since 2025-12-01T10:00:00.000Z, registered`),
    );
    expect(run.out).toContain('Done: 0 added, 1 already in the inventory, 0 invalid, 0 failed.');
  });

  it('issues another certificate with --new-certificate, next to the files of the earlier one', async () => {
    await provision([A]);
    const [first] = issued;
    iot.reset();
    iot.on(DescribeThingCommand).resolves({ thingName: A });
    iot.on(ListThingPrincipalsCommand).resolves({ principals: [certArn(first!.id)] });
    iot.on(CreateKeysAndCertificateCommand).callsFake(() => {
      const id = randomBytes(32).toString('hex');
      issued.push({ id, pem: 'pem', key: 'key' });
      return { certificateId: id, certificateArn: certArn(id), certificatePem: 'pem', keyPair: { PrivateKey: 'key' } };
    });
    iot.on(AttachThingPrincipalCommand).resolves({});
    iot.on(AttachPolicyCommand).resolves({});

    const run = await provision(['--new-certificate', A]);
    expect(run.code).toBe(0);
    const second = issued[1]!;
    expect(iotCalls()).toEqual([
      ['DescribeThingCommand', { thingName: A }],
      ['ListThingPrincipalsCommand', { thingName: A }],
      ['AttachPolicyCommand', { policyName: POLICY, target: certArn(first!.id) }],
      ['CreateKeysAndCertificateCommand', { setAsActive: true }],
      ['AttachThingPrincipalCommand', { thingName: A, principal: certArn(second.id) }],
      ['AttachPolicyCommand', { policyName: POLICY, target: certArn(second.id) }],
    ]);
    const files = readdirSync(join(out, A));
    for (const id of [first!.id, second.id]) expect(files).toEqual(expect.arrayContaining([`${id}-certificate.pem.crt`, `${id}-private.pem.key`]));
    expect(mode(join(out, A, `${second.id}-private.pem.key`))).toBe(0o600);
    expect(JSON.parse(readFileSync(join(out, A, 'connection.json'), 'utf8'))).toMatchObject({ certificateId: second.id });
    expect(run.out).toContain(`certificate ${first!.id} kept; certificate ${second.id} issued`);
  });

  it('reports a tracker whose IoT calls fail, leaves it out of the inventory, and goes on with the others', async () => {
    iot.on(DescribeThingCommand, { thingName: A }).rejects(new ThrottlingException({ message: 'Rate exceeded', $metadata: {} }));
    const run = await provision([A, B]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(new RegExp(`${A}\\s+failed: ThrottlingException: Rate exceeded`));
    expect(ddb.commandCalls(PutCommand).map((c) => c.args[0].input.Item?.['imei'])).toEqual([B]);
    expect(run.out).toContain('Done: 1 added, 0 already in the inventory, 0 invalid, 1 failed.');
  });

  it('stops before any change when the stack is missing or lacks the outputs', async () => {
    stackAnswers({ InventoryTable: TABLE, ApiUrl: 'https://x' });
    const old = await provision([A]);
    expect(old.code).toBe(2);
    expect(old.err).toContain(`Stack ${STACK} has no output TrackerPolicyName, IotDataEndpoint: deploy the current version first`);

    cfn.reset();
    cfn.on(DescribeStacksCommand).rejects(new Error(`Stack with id ${STACK} does not exist`));
    const none = await provision([A]);
    expect(none.code).toBe(2);
    expect(none.err).toContain(`Cannot read stack ${STACK} (eu-north-1): Stack with id ${STACK} does not exist`);

    expect(iot.calls()).toHaveLength(0);
    expect(ddb.calls()).toHaveLength(0);
  });
});
