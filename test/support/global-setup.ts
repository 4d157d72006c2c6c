/**
 * One DynamoDB Local for the whole test run (a JVM per test file would not fit two cores); each
 * test file works under its own table prefix.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalDynamo, type LocalDynamoTarget } from '../../infra/local/dynamo-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamo: LocalDynamoTarget;
    /** The Lambda bundles' root, shared by every test file of the run (test/infra/helpers.ts). */
    bundleRoot: string;
  }
}

export default async function setup(project: TestProject) {
  const db = await startLocalDynamo();
  project.provide('dynamo', { endpoint: db.endpoint, accessKeyId: db.accessKeyId });
  // Eight files synthesize the stack; each bundle is built once for the run, not once per file.
  const bundleRoot = mkdtempSync(join(tmpdir(), 'portal-bundles-'));
  project.provide('bundleRoot', bundleRoot);
  return async () => {
    await db.stop();
    rmSync(bundleRoot, { recursive: true, force: true });
  };
}
