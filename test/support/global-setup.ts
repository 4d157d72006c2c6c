/**
 * Once per test run, before any test file: one DynamoDB Local for the whole run (a JVM per test
 * file would not fit two cores; each test file works under its own table prefix), the Lambda
 * bundles when the unit project runs (test/support/bundles.ts), and the web app's build when the
 * browser project runs and web/dist has none (the browser files, running side by side, only read
 * it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startLocalDynamo, type LocalDynamoTarget } from '../../infra/local/dynamo-local';
import { buildDefaultBundles } from './bundles';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamo: LocalDynamoTarget;
    /** The Lambda bundles' root, shared by every test file of the run (test/infra/helpers.ts). */
    bundleRoot: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(project: TestProject) {
  const running = new Set(project.vitest.projects.map((p) => p.name));
  if (running.has('e2e') && !process.env['E2E_WEB_DIR'] && !existsSync(join(ROOT, 'web', 'dist', 'index.html'))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
  const db = await startLocalDynamo();
  project.provide('dynamo', { endpoint: db.endpoint, accessKeyId: db.accessKeyId });
  const bundleRoot = mkdtempSync(join(tmpdir(), 'portal-bundles-'));
  project.provide('bundleRoot', bundleRoot);
  try {
    if (running.has('unit')) await buildDefaultBundles(bundleRoot);
  } catch (error) {
    await db.stop();
    throw error;
  }
  return async () => {
    await db.stop();
    rmSync(bundleRoot, { recursive: true, force: true });
  };
}
