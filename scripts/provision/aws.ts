/**
 * The deployed-stack target. The stack's outputs name the inventory table, the trackers' IoT
 * policy and the IoT data endpoint (infra/stack.ts). Per IMEI:
 *
 * 1. the IoT thing named by the IMEI (DescribeThing, CreateThing when missing);
 * 2. a certificate when the thing has none, or with --new-certificate: CreateKeysAndCertificate
 *    (active), its files written at once (the private key exists only in this answer), then
 *    AttachThingPrincipal and AttachPolicy. Certificates the thing already has are kept, and the
 *    policy is attached to them again (idempotent), which completes a run that stopped half-way;
 * 3. the inventory item, last, so that no customer can register a tracker that cannot connect.
 *
 * Files, in `<out>/<imei>/` (folder 0700): `<certificate id>-certificate.pem.crt`,
 * `<certificate id>-private.pem.key` (0600) and `connection.json` (endpoint, client id, the files
 * of the newest certificate, where the Amazon root CA is published and the tracker's topics: Basic
 * Ingest for what it publishes, docs/decisions/0003). Never overwritten: every
 * certificate has its own names.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeThingCommand,
  IoTClient,
  ResourceNotFoundException,
  paginateListThingPrincipals,
} from '@aws-sdk/client-iot';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addToInventory } from './inventory';
import { ProvisionError, trackerTopicsFor, type IotOutcome, type ProvisionTarget, type TrackerTopics } from './target';

/** The CA that signs IoT Core's ATS endpoints (iot:Data-ATS); devices need it to trust the broker. */
export const AMAZON_ROOT_CA_URL = 'https://www.amazontrust.com/repository/AmazonRootCA1.pem';
export const MQTT_TLS_PORT = 8883;

export interface StackOutputs {
  readonly inventoryTable: string;
  readonly trackerPolicyName: string;
  readonly iotDataEndpoint: string;
}

const OUTPUT_NAMES: Readonly<Record<keyof StackOutputs, string>> = {
  inventoryTable: 'InventoryTable',
  trackerPolicyName: 'TrackerPolicyName',
  iotDataEndpoint: 'IotDataEndpoint',
};

export interface AwsClients {
  readonly cloudFormation: CloudFormationClient;
  readonly iot: IoTClient;
  readonly dynamo: DynamoDBDocumentClient;
}

/** Region and credentials from the usual AWS environment (AWS_REGION, AWS_PROFILE, ...). */
export function defaultAwsClients(): AwsClients {
  return {
    cloudFormation: new CloudFormationClient({}),
    iot: new IoTClient({}),
    dynamo: DynamoDBDocumentClient.from(new DynamoDBClient({})),
  };
}

export async function readStackOutputs(cfn: CloudFormationClient, stackName: string): Promise<StackOutputs> {
  let outputs: Map<string, string>;
  try {
    const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
    outputs = new Map((Stacks?.[0]?.Outputs ?? []).flatMap((o) => (o.OutputKey && o.OutputValue ? [[o.OutputKey, o.OutputValue] as const] : [])));
  } catch (e) {
    const region = await cfn.config.region().catch(() => 'no region set');
    throw new ProvisionError(`Cannot read stack ${stackName} (${region}): ${e instanceof Error ? e.message : String(e)}`);
  }
  const missing = Object.values(OUTPUT_NAMES).filter((name) => !outputs.has(name));
  if (missing.length) {
    throw new ProvisionError(`Stack ${stackName} has no output ${missing.join(', ')}: deploy the current version first (npx cdk deploy).`);
  }
  const get = (key: keyof StackOutputs) => outputs.get(OUTPUT_NAMES[key]) ?? '';
  return { inventoryTable: get('inventoryTable'), trackerPolicyName: get('trackerPolicyName'), iotDataEndpoint: get('iotDataEndpoint') };
}

interface ThingOptions {
  readonly policyName: string;
  readonly endpoint: string;
  readonly outDir: string;
  readonly newCertificate: boolean;
  /** The deployed stack's name: the IoT rules, and so the Basic Ingest topics, are named after it. */
  readonly stackName: string;
}

async function certificatesOf(iot: IoTClient, thingName: string): Promise<string[]> {
  const arns: string[] = [];
  for await (const page of paginateListThingPrincipals({ client: iot }, { thingName })) {
    arns.push(...(page.principals ?? []).filter((p) => /:cert\/[0-9a-f]+$/.test(p)));
  }
  return arns;
}

const certificateIdOf = (arn: string) => arn.slice(arn.lastIndexOf('/') + 1);

async function issueCertificate(iot: IoTClient, imei: string, options: ThingOptions): Promise<NonNullable<IotOutcome['issued']>> {
  const dir = join(resolve(options.outDir), imei);
  // Before the certificate exists: a folder that cannot be written must not cost a private key.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const cert = await iot.send(new CreateKeysAndCertificateCommand({ setAsActive: true }));
  const { certificateId, certificateArn, certificatePem } = cert;
  const privateKey = cert.keyPair?.PrivateKey;
  if (!certificateId || !certificateArn || !certificatePem || !privateKey) throw new Error('CreateKeysAndCertificate answered without the certificate or its key');

  const certificateFile = `${certificateId}-certificate.pem.crt`;
  const keyFile = `${certificateId}-private.pem.key`;
  writeFileSync(join(dir, certificateFile), certificatePem, { mode: 0o644, flag: 'wx' });
  writeFileSync(join(dir, keyFile), privateKey, { mode: 0o600, flag: 'wx' });
  const connection = {
    endpoint: options.endpoint,
    port: MQTT_TLS_PORT,
    clientId: imei,
    thingName: imei,
    certificateId,
    certificateArn,
    certificate: certificateFile,
    privateKey: keyFile,
    rootCa: AMAZON_ROOT_CA_URL,
    topics: trackerTopicsFor(options.stackName, imei) satisfies TrackerTopics,
  };
  writeFileSync(join(dir, 'connection.json'), `${JSON.stringify(connection, null, 2)}\n`, { mode: 0o644 });

  await iot.send(new AttachThingPrincipalCommand({ thingName: imei, principal: certificateArn }));
  await iot.send(new AttachPolicyCommand({ policyName: options.policyName, target: certificateArn }));
  return { certificateId, dir, files: [certificateFile, keyFile, 'connection.json'] };
}

export async function provisionThing(iot: IoTClient, imei: string, options: ThingOptions): Promise<IotOutcome> {
  let thing: IotOutcome['thing'] = 'existing';
  try {
    await iot.send(new DescribeThingCommand({ thingName: imei }));
  } catch (e) {
    if (!(e instanceof ResourceNotFoundException)) throw e;
    await iot.send(new CreateThingCommand({ thingName: imei }));
    thing = 'created';
  }
  const kept = thing === 'existing' ? await certificatesOf(iot, imei) : [];
  for (const arn of kept) await iot.send(new AttachPolicyCommand({ policyName: options.policyName, target: arn }));
  const issued = !kept.length || options.newCertificate ? await issueCertificate(iot, imei, options) : undefined;
  return { thing, kept: kept.map(certificateIdOf), ...(issued ? { issued } : {}) };
}

function destroy(clients: AwsClients): void {
  clients.cloudFormation.destroy();
  clients.iot.destroy();
  clients.dynamo.destroy();
}

export async function openAwsTarget(
  options: { readonly stackName: string; readonly outDir: string; readonly newCertificate: boolean },
  now: () => Date = () => new Date(),
  clients: AwsClients = defaultAwsClients(),
): Promise<ProvisionTarget> {
  let outputs: StackOutputs;
  try {
    outputs = await readStackOutputs(clients.cloudFormation, options.stackName);
  } catch (e) {
    destroy(clients);
    throw e;
  }
  const thingOptions: ThingOptions = {
    policyName: outputs.trackerPolicyName,
    endpoint: outputs.iotDataEndpoint,
    outDir: options.outDir,
    newCertificate: options.newCertificate,
    stackName: options.stackName,
  };
  return {
    description: `stack ${options.stackName} (table ${outputs.inventoryTable}, IoT policy ${outputs.trackerPolicyName})`,
    notes: [`Trackers connect to ${outputs.iotDataEndpoint}:${MQTT_TLS_PORT} with their IMEI as client id; root CA: ${AMAZON_ROOT_CA_URL}`],
    provision: async (imei) => {
      const iot = await provisionThing(clients.iot, imei, thingOptions);
      return { iot, inventory: await addToInventory(clients.dynamo, outputs.inventoryTable, imei, now()), topics: trackerTopicsFor(options.stackName, imei) };
    },
    close: () => destroy(clients),
  };
}
