import { resetPorts } from '../../functions/platform/container';
import { resetDynamoClient } from '../../functions/platform/db';
import { resetEnvCache } from '../../functions/platform/env';
import type { LocalDynamoTarget } from './dynamo-local';

/**
 * Gives the in-process handlers their environment, as the stack gives it to a Lambda function,
 * and drops what they cached from an earlier one (environment, DynamoDB client, ports).
 */
export function configureHandlerEnvironment(env: {
  tablePrefix: string;
  dynamo: LocalDynamoTarget;
  jwtSecret: string;
  vapidSeed?: string;
  appUrl: string;
  filesDir?: string | null;
  /** The self-hosted street map's archive (BASEMAP_URL), when the base map folder holds one. */
  basemapUrl?: string | null;
}): void {
  Object.assign(process.env, {
    RUNTIME: 'embedded',
    TABLE_PREFIX: env.tablePrefix,
    DYNAMODB_ENDPOINT: env.dynamo.endpoint,
    DYNAMODB_ACCESS_KEY_ID: env.dynamo.accessKeyId,
    JWT_SECRET: env.jwtSecret,
    APP_URL: env.appUrl,
    AWS_REGION: process.env.AWS_REGION ?? 'eu-north-1',
  });
  // Uploaded files (unit pictures) under DATA_DIR/files; without a data directory, in memory.
  if (env.filesDir) process.env['FILES_DIR'] = env.filesDir;
  else delete process.env['FILES_DIR'];
  if (env.vapidSeed) process.env['VAPID_SEED'] = env.vapidSeed;
  else delete process.env['VAPID_SEED'];
  if (env.basemapUrl) process.env['BASEMAP_URL'] = env.basemapUrl;
  else delete process.env['BASEMAP_URL'];
  resetEnvCache();
  resetDynamoClient();
  resetPorts();
}
