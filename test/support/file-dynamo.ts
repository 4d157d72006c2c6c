/**
 * The run's one DynamoDB Local (test/support/global-setup.ts), under a database of this test
 * worker's own. DynamoDB Local keeps a database per access key id, and creating a table there takes
 * longer the more tables that database holds (about 0.3 s for a file's 45 tables in a database of
 * 2,000, 2.8 s in one of 9,000), and every call pays for them: with one database for the whole run,
 * the files late in a run waited seconds for their tables.
 *
 * So a file's tables are deleted when it ends (dropFileTables, run after every file by
 * test/support/drop-tables.ts), and each worker process has a database of its own (its
 * `VITEST_POOL_ID`): a worker runs one file at a time, so its database holds only the tables of the
 * file it runs (under a table prefix of the file's own), and no other file's runtime can meet them.
 * DynamoDB Local also runs background jobs (time to live, index builds) over every table of every
 * database about once a second, whether or not anything calls it. Measured idle: 80 databases of
 * 45 tables cost it a third of a core, the same databases emptied a twenty-fifth. With a database
 * per file and no table deleted, those jobs had it busy for most of a run's second half.
 */
import { createHash } from 'node:crypto';
import { inject } from 'vitest';
import type { LocalDynamoTarget } from '../../infra/local/dynamo-local';

let accessKeyId: string | undefined;

export function fileDynamo(): LocalDynamoTarget {
  const run = inject('dynamo');
  accessKeyId ??= createHash('sha1').update(`${run.accessKeyId}:${process.env['VITEST_POOL_ID'] ?? process.pid}`).digest('hex').toUpperCase();
  return { ...run, accessKeyId };
}

/**
 * Deletes every table of this worker's database, if the file used it. The file's own hooks have
 * run by then (its runtimes are stopped), and a worker runs one file at a time, so every table
 * there is this file's (or one a killed file left).
 */
export async function dropFileTables(): Promise<void> {
  if (!accessKeyId) return;
  // Loaded only here: most files never touch DynamoDB, and the SDK takes a while to import.
  const [{ DeleteTableCommand, ListTablesCommand, ResourceNotFoundException }, { localDynamoClient }] = await Promise.all([
    import('@aws-sdk/client-dynamodb'),
    import('../../infra/local/dynamo-local'),
  ]);
  const client = localDynamoClient(fileDynamo());
  try {
    const names: string[] = [];
    let start: string | undefined;
    do {
      const page = await client.send(new ListTablesCommand(start ? { ExclusiveStartTableName: start } : {}));
      names.push(...(page.TableNames ?? []));
      start = page.LastEvaluatedTableName;
    } while (start);
    await Promise.all(
      names.map((TableName) =>
        client.send(new DeleteTableCommand({ TableName })).catch((error: unknown) => {
          if (!(error instanceof ResourceNotFoundException)) throw error;
        }),
      ),
    );
  } finally {
    client.destroy();
  }
}
