/**
 * The DynamoDB document client and physical table names. The embedded runtime points the client
 * at DynamoDB Local through DYNAMODB_ENDPOINT and DYNAMODB_ACCESS_KEY_ID; on AWS the SDK's
 * defaults apply.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { physicalTableName, tables, type TableKey } from '../../shared/tables';
import { EnvironmentError, getEnv } from './env';

let client: DynamoDBDocumentClient | undefined;
let rawClient: DynamoDBClient | undefined;

/** DynamoDB Local keeps a database per access key id and region: every local client uses this region. */
export const LOCAL_DYNAMO_REGION = 'eu-north-1';

/**
 * DynamoDB Local reads the key id and region from the Authorization header and checks no
 * signature, so the embedded runtime does not compute one: SigV4's hashing and HMACs were 6 % of
 * its main thread under npm run bench:ingest (CPU profile). On AWS the SDK signs as always.
 */
type RequestSigner = Extract<NonNullable<DynamoDBClientConfig['signer']>, { sign: unknown }>;

function localSigner(accessKeyId: string): RequestSigner {
  const authorization = `AWS4-HMAC-SHA256 Credential=${accessKeyId}/20000101/${LOCAL_DYNAMO_REGION}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`;
  return {
    sign: (request) => {
      request.headers['authorization'] = authorization;
      return Promise.resolve(request);
    },
  };
}

/**
 * The low-level client under `dynamo()`, for a hot path that hands DynamoDB attribute values it
 * built itself (the positions' batch writes, functions/ingest/repository.ts) instead of paying for
 * the document client's marshalling.
 */
export function dynamoRaw(): DynamoDBClient {
  dynamo();
  return rawClient as DynamoDBClient;
}

export function dynamo(): DynamoDBDocumentClient {
  if (!client) {
    const env = getEnv();
    const raw = new DynamoDBClient(
      env.RUNTIME === 'embedded'
        ? {
            region: LOCAL_DYNAMO_REGION,
            endpoint: env.DYNAMODB_ENDPOINT,
            // The key id picks the runtime's database in DynamoDB Local (infra/local/dynamo-local.ts).
            credentials: { accessKeyId: env.DYNAMODB_ACCESS_KEY_ID, secretAccessKey: 'local' },
            signer: localSigner(env.DYNAMODB_ACCESS_KEY_ID),
          }
        : { region: env.AWS_REGION },
    );
    // We never give the SDK a logger, yet its logger middleware still runs every input and output
    // through the sensitive-data filter for the no-op one: 2 % of the embedded runtime's main
    // thread under npm run bench:ingest (CPU profile), and Lambda bills that time too.
    raw.middlewareStack.remove('loggerMiddleware');
    rawClient = raw;
    client = DynamoDBDocumentClient.from(raw, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return client;
}

/**
 * The physical name of a table. On AWS only the tables granted to this function are named in its
 * environment, so asking for another one fails here, with its name, instead of as AccessDenied.
 */
export function tableName(key: TableKey): string {
  const env = getEnv();
  if (env.RUNTIME === 'embedded') return physicalTableName(env.TABLE_PREFIX, tables[key]);
  const name = env.TABLES[key];
  if (!name) {
    throw new EnvironmentError(`table ${key} is not granted to this function: declare it in shared/capability-resources.ts`);
  }
  return name;
}

export function resetDynamoClient(): void {
  client = undefined;
  rawClient = undefined;
}

/** Epoch seconds, the unit of DynamoDB TTL attributes. */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
