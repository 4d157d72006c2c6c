/**
 * Once per test run, before any test file: one DynamoDB Local for the whole run (a JVM per test
 * file would not fit two cores; each test file works under its own table prefix), the Lambda
 * bundles and the two shared stacks' templates when the unit project runs
 * (test/support/portal-stack.ts), and the web app's build when the browser project runs and
 * web/dist has none (the browser files, running side by side, only read it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startLocalDynamo, type LocalDynamoTarget } from '../../infra/local/dynamo-local';
import type { SharedStacks } from './portal-stack';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamo: LocalDynamoTarget;
    /** The Lambda bundles' root, shared by every test file of the run (test/infra/helpers.ts). */
    bundleRoot: string;
    /** The default and the full stack, synthesized once per run (test/support/portal-stack.ts); empty when `unit` does not run. */
    sharedStacks: SharedStacks;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(project: TestProject) {
  const running = new Set(project.vitest.projects.map((p) => p.name));
  if (running.has('e2e') && !process.env['E2E_WEB_DIR'] && !existsSync(join(ROOT, 'web', 'dist', 'index.html'))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], {
      cwd: ROOT,
      stdio: 'inherit',
      // vitest sets NODE_ENV=test, which would make a development build (no service worker).
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  const db = await startLocalDynamo();
  project.provide('dynamo', { endpoint: db.endpoint, accessKeyId: db.accessKeyId });
  const bundleRoot = mkdtempSync(join(tmpdir(), 'portal-bundles-'));
  const stacksDir = mkdtempSync(join(tmpdir(), 'portal-stacks-'));
  project.provide('bundleRoot', bundleRoot);
  try {
    let stacks: SharedStacks = { defaultTemplate: '', fullTemplate: '', webDist: '' };
    // Imported only here, so that a browser-only run never loads the CDK.
    if (running.has('unit')) stacks = (await import('./portal-stack')).synthesizeSharedStacks(bundleRoot, stacksDir);
    project.provide('sharedStacks', stacks);
  } catch (error) {
    await db.stop();
    for (const dir of [bundleRoot, stacksDir]) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return async () => {
    await db.stop();
    rmSync(bundleRoot, { recursive: true, force: true });
    rmSync(stacksDir, { recursive: true, force: true });
  };
}
