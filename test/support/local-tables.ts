/**
 * For integration tests of repositories and adapters: the shared DynamoDB Local, a fresh table
 * prefix, every table of the manifest, and the handler environment pointing at them.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { tableList } from '../../shared/tables';
import { resetPorts } from '../../functions/platform/container';
import { resetDynamoClient } from '../../functions/platform/db';
import { resetEnvCache } from '../../functions/platform/env';
import { createTables, localDynamoClient } from '../../infra/local/dynamo-local';

export async function useLocalTables(): Promise<{ prefix: string; endpoint: string }> {
  const endpoint = inject('dynamoEndpoint');
  const prefix = `t${randomBytes(4).toString('hex')}-`;
  const client = localDynamoClient(endpoint);
  await createTables(client, prefix, tableList);
  client.destroy();
  Object.assign(process.env, {
    RUNTIME: 'embedded',
    TABLE_PREFIX: prefix,
    DYNAMODB_ENDPOINT: endpoint,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    APP_URL: 'http://localhost:3000',
    AWS_REGION: 'eu-north-1',
  });
  resetEnvCache();
  resetDynamoClient();
  resetPorts();
  return { prefix, endpoint };
}
