/**
 * One DynamoDB Local for the whole test run (a JVM per test file would not fit two cores); each
 * test file works under its own table prefix.
 */
import type { TestProject } from 'vitest/node';
import { startLocalDynamo } from '../../infra/local/dynamo-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const db = await startLocalDynamo();
  project.provide('dynamoEndpoint', db.endpoint);
  return () => db.stop();
}
