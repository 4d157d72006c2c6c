/**
 * The run's one DynamoDB Local (test/support/global-setup.ts), under a database of this test
 * file's own. DynamoDB Local keeps a database per access key id, and creating a table there takes
 * longer the more tables that database holds (about 0.3 s for a file's 45 tables in a database of
 * 2,000, 2.8 s in one of 9,000): with one database for the whole run, the files late in a run
 * waited seconds for their tables, and every call paid for the thousands of tables before them.
 * Each module graph gets one key, so all a file starts and reads meets the same database: a unit
 * file's own, or the one of the browser files that share a worker's module graph (vitest.config.ts;
 * each of those runs under a table prefix of its own, a dozen files' tables in one database).
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { LocalDynamoTarget } from '../../infra/local/dynamo-local';

let accessKeyId: string | undefined;

export function fileDynamo(): LocalDynamoTarget {
  accessKeyId ??= randomBytes(20).toString('hex').toUpperCase();
  return { ...inject('dynamo'), accessKeyId };
}
