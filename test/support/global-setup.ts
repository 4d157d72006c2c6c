/**
 * Once per test run, before any test file: one DynamoDB Local for the whole run (a JVM per test
 * file would not fit two cores; each test file works under its own table prefix), the web app's
 * build when the browser project runs and web/dist has none (the browser files, running side by
 * side, only read it), and, when the unit project runs, the Lambda bundles and the two shared
 * stacks' templates (test/support/portal-stack.ts). Those take about a minute, mostly on one
 * core, and only the infrastructure tests need them: a process of its own makes them
 * (synth-shared-stacks.ts) while the first files run, and test/infra/helpers.ts waits for it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startLocalDynamo, type LocalDynamoTarget } from '../../infra/local/dynamo-local';
import { FAILED_FILE, READY_FILE, sharedStacksIn, type SharedStacks } from './shared-stacks';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamo: LocalDynamoTarget;
    /** The Lambda bundles' root, shared by every test file of the run (test/infra/helpers.ts). */
    bundleRoot: string;
    /** The default and the full stack, synthesized once per run when `unit` runs (test/support/synth-shared-stacks.ts). */
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
  project.provide('sharedStacks', sharedStacksIn(stacksDir));
  let synth: ChildProcess | undefined;
  if (running.has('unit')) {
    synth = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'support', 'synth-shared-stacks.ts'), bundleRoot, stacksDir], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    // Killed or out of memory, it wrote nothing: say so, rather than let the tests wait for it.
    synth.on('exit', (code, signal) => {
      synth = undefined;
      if (!existsSync(join(stacksDir, READY_FILE)) && !existsSync(join(stacksDir, FAILED_FILE))) {
        writeFileSync(join(stacksDir, FAILED_FILE), `synth-shared-stacks.ts ended (${signal ?? `exit code ${code}`}) before it was done`);
      }
    });
  }
  return async () => {
    if (synth) {
      const ended = new Promise((done) => synth?.once('exit', done));
      synth.kill();
      await ended;
    }
    await db.stop();
    rmSync(bundleRoot, { recursive: true, force: true });
    rmSync(stacksDir, { recursive: true, force: true });
  };
}
