/**
 * For integration tests of repositories and adapters: the shared DynamoDB Local, a fresh table
 * prefix, every table of the manifest, and the handler environment pointing at them.
 */
import { randomBytes } from 'node:crypto';
import { tableList } from '../../shared/tables';
import { createTables, localDynamoClient } from '../../infra/local/dynamo-local';
import { configureHandlerEnvironment } from '../../infra/local/handler-env';
import { fileDynamo } from './file-dynamo';

export async function useLocalTables(): Promise<{ prefix: string; endpoint: string }> {
  const dynamo = fileDynamo();
  const prefix = `t${randomBytes(4).toString('hex')}-`;
  const client = localDynamoClient(dynamo);
  // The tests store data at fixed dates, some older than its retention (createTables).
  await createTables(client, prefix, tableList, { timeToLive: false });
  client.destroy();
  configureHandlerEnvironment({
    tablePrefix: prefix,
    dynamo,
    jwtSecret: randomBytes(48).toString('base64url'),
    appUrl: 'http://localhost:3000',
  });
  return { prefix, endpoint: dynamo.endpoint };
}
