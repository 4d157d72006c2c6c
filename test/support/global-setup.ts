/**
 * Once per test run, before any test file: one DynamoDB Local for the whole run (a JVM per test
 * file would not fit two cores; each test file works under its own table prefix), the web app's
 * build when the browser project runs and web/dist has none (the browser files, running side by
 * side, only read it), and the place of the Lambda bundles and the two shared stacks' templates
 * (test/support/portal-stack.ts). Those take about a minute, mostly on one core, and only the
 * infrastructure tests need them: the first of them starts a process that makes them
 * (test/support/shared-stacks.ts) while other files run, and the end of the run stops it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { SHORT_LIVED_JVM, startLocalDynamo, type LocalDynamoTarget } from '../../infra/local/dynamo-local';
import { sharedStacksIn, stopSharedStacks, type SharedStacks } from './shared-stacks';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamo: LocalDynamoTarget;
    /** The Lambda bundles' root, shared by every test file of the run (test/infra/helpers.ts). */
    bundleRoot: string;
    /** The default and the full stack, synthesized once per run when an infrastructure test asks (test/support/shared-stacks.ts). */
    sharedStacks: SharedStacks;
    /**
     * A folder for what test files write (cloud assemblies, scratch files), removed at the end of
     * the run: a worker process is not always let run its exit handlers, and one infrastructure
     * file's cloud assemblies take half a gigabyte.
     */
    scratchRoot: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUN_PREFIX = 'portal-test-run-';
/** Older than any test run lasts: a run that was killed before its teardown. */
const STALE_RUN_MS = 6 * 3600_000;

/**
 * The folders of earlier runs killed before their teardown, and of DynamoDB Local processes killed
 * with their parent (infra/local/dynamo-local.ts; the kill-and-restart test does that), so that
 * killed runs do not fill the disk.
 */
function removeStaleRuns(): void {
  const now = Date.now();
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(RUN_PREFIX) && !name.startsWith('dynamodb-local-')) continue;
    const dir = join(tmpdir(), name);
    try {
      if (now - statSync(dir).mtimeMs > STALE_RUN_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}

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
  // Everything the run writes outside the database, in one folder that the end of the run removes.
  removeStaleRuns();
  const runDir = mkdtempSync(join(tmpdir(), RUN_PREFIX));
  const db = await startLocalDynamo({ jvmOptions: SHORT_LIVED_JVM });
  project.provide('dynamo', { endpoint: db.endpoint, accessKeyId: db.accessKeyId });
  const bundleRoot = join(runDir, 'bundles');
  const scratchRoot = join(runDir, 'scratch');
  mkdirSync(bundleRoot);
  mkdirSync(scratchRoot);
  const stacks = sharedStacksIn(join(runDir, 'stacks'));
  mkdirSync(stacks.dir);
  project.provide('bundleRoot', bundleRoot);
  project.provide('sharedStacks', stacks);
  project.provide('scratchRoot', scratchRoot);
  return async () => {
    try {
      stopSharedStacks(stacks);
      await db.stop();
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  };
}
