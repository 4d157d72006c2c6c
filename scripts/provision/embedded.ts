/**
 * The embedded target: the `npm start` runtime of this environment. A runtime with a data
 * directory announces its DynamoDB Local endpoint and table prefix in `<DATA_DIR>/runtime.json`
 * (infra/local/runtime.ts); the trackers go straight into its inventory table. An `--ephemeral`
 * runtime announces nothing, so it cannot be provisioned (its data would vanish with it anyway).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { EMBEDDED_STACK_NAME } from '../../shared/iot-rules';
import { physicalTableName, tables } from '../../shared/tables';
import { localDynamoClient } from '../../infra/local/dynamo-local';
import type { RUNTIME_FILE as RuntimeFile, RuntimeAnnouncement } from '../../infra/local/runtime';
import { addToInventory } from './inventory';
import { ProvisionError, trackerTopicsFor, type ProvisionTarget } from './target';

// Typed against the runtime's constant without loading the runtime (and every handler) here.
const RUNTIME_FILE: typeof RuntimeFile = 'runtime.json';

const announcementSchema = z.object({
  dynamoEndpoint: z.url(),
  dynamoAccessKeyId: z.string().min(1),
  tablePrefix: z.string().min(1),
  url: z.url(),
  pid: z.int().positive(),
}) satisfies z.ZodType<RuntimeAnnouncement>;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The announcement of the runtime running on `dataDir`, or a ProvisionError saying what to do. */
export function readRuntimeAnnouncement(dataDir: string): RuntimeAnnouncement {
  const file = join(resolve(dataDir), RUNTIME_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ProvisionError(
      `No running portal uses ${dataDir} (${file} does not exist). Start it with \`npm start\` and the same DATA_DIR ` +
        '(not --ephemeral: an in-memory runtime cannot be provisioned), or give --stack <name> for a deployed stack.',
    );
  }
  let announcement: RuntimeAnnouncement;
  try {
    announcement = announcementSchema.parse(JSON.parse(text));
  } catch {
    throw new ProvisionError(`${file} is not a runtime announcement; stop the portal, remove the file and start it again.`);
  }
  if (!isRunning(announcement.pid)) {
    throw new ProvisionError(`${file} is left over from a portal (pid ${announcement.pid}) that is no longer running. Start it with \`npm start\`.`);
  }
  return announcement;
}

export async function openEmbeddedTarget(dataDir: string, now: () => Date = () => new Date()): Promise<ProvisionTarget> {
  const runtime = readRuntimeAnnouncement(dataDir);
  const client = localDynamoClient({ endpoint: runtime.dynamoEndpoint, accessKeyId: runtime.dynamoAccessKeyId });
  const table = physicalTableName(runtime.tablePrefix, tables.inventory);
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
  } catch (e) {
    client.destroy();
    throw new ProvisionError(
      `The portal at ${runtime.url} (pid ${runtime.pid}) has no usable inventory table ${table} at ${runtime.dynamoEndpoint}: ` +
        `${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const db = DynamoDBDocumentClient.from(client);
  return {
    description: `the portal at ${runtime.url} (data in ${resolve(dataDir)})`,
    notes: [`Trackers connect to the portal's MQTT broker with their IMEI as client id (npm start prints its address).`],
    provision: async (imei) => ({ inventory: await addToInventory(db, table, imei, now()), topics: trackerTopicsFor(EMBEDDED_STACK_NAME, imei) }),
    close: () => db.destroy(),
  };
}
