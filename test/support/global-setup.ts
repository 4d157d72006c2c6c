/**
 * One DynamoDB Local for the whole test run (a JVM per test file would not fit two cores); each
 * test file works under its own table prefix.
 */
import type { TestProject } from 'vitest/node';
import { startLocalDynamo, type LocalDynamoTarget } from '../../infra/local/dynamo-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamo: LocalDynamoTarget;
  }
}

export default async function setup(project: TestProject) {
  const db = await startLocalDynamo();
  project.provide('dynamo', { endpoint: db.endpoint, accessKeyId: db.accessKeyId });
  return () => db.stop();
}
