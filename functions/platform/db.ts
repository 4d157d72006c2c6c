/**
 * The DynamoDB document client and physical table names. The embedded runtime points the client
 * at DynamoDB Local through DYNAMODB_ENDPOINT; on AWS the SDK's defaults apply.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { physicalTableName, tables, type TableKey } from '../../shared/tables';
import { getEnv } from './env';

let client: DynamoDBDocumentClient | undefined;

export function dynamo(): DynamoDBDocumentClient {
  if (!client) {
    const env = getEnv();
    const raw = new DynamoDBClient(
      env.RUNTIME === 'embedded'
        ? {
            region: env.AWS_REGION,
            endpoint: env.DYNAMODB_ENDPOINT,
            // DynamoDB Local accepts any credentials; fixed ones keep every process on one database.
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : { region: env.AWS_REGION },
    );
    // We never give the SDK a logger, yet its logger middleware still runs every input and output
    // through the sensitive-data filter for the no-op one: 2 % of the embedded runtime's main
    // thread under npm run bench:ingest (CPU profile), and Lambda bills that time too.
    raw.middlewareStack.remove('loggerMiddleware');
    client = DynamoDBDocumentClient.from(raw, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return client;
}

export function tableName(key: TableKey): string {
  return physicalTableName(getEnv().TABLE_PREFIX, tables[key]);
}

export function resetDynamoClient(): void {
  client = undefined;
}

/** Epoch seconds, the unit of DynamoDB TTL attributes. */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
