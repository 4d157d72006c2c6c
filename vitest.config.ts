import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Three projects: everything that runs in Node (unit, integration against DynamoDB Local, CDK
// assertions, API black-box against the embedded runtime), of it the API files that can share a
// worker's module graph (`api`, below), and the browser end-to-end tests in real Chromium. All
// share one pool of workers, so the browser files start beside the unit files
// rather than after them (the slowest files first, by the durations of the last run) and run side
// by side: each has its own runtime on ports of its own and its own table prefix, and reads the
// one web build. One DynamoDB Local serves the whole run (test/support/global-setup.ts), which
// also builds the web app when it is missing, once before any file starts; the first
// infrastructure test has the Lambda bundles and the shared stacks made beside the other files
// (test/support/shared-stacks.ts).
// Workers: three on two cores, as a browser file partly waits on Chromium and the runtime.
const ignored = ['**/node_modules/**', 'cdk.out/**', 'web/dist/**', '.data/**'];

/**
 * The API black-box files that share a worker's module graph (the `api` project): each starts its
 * own runtime, which sets the handlers' environment, DynamoDB client and ports afresh
 * (infra/local/handler-env.ts), so importing the runtime and the handlers its calls reach once per
 * worker rather than once per file changes nothing they check. Measured with 34 files, three
 * workers, the machine busy throughout: 309 CPU-seconds and 157 s isolated, 198 and 104 s shared. A file that
 * mocks modules, globals or timers, spies, overrides ports or writes the environment stays
 * isolated in the unit project.
 */
const API_DIR = fileURLToPath(new URL('test/api/', import.meta.url));
const SHARED_API = readdirSync(API_DIR)
  .filter((name) => name.endsWith('.test.ts'))
  .filter((name) => {
    const source = readFileSync(join(API_DIR, name), 'utf8');
    return source.includes('startRuntime(') && !/vi\.(mock|stubGlobal|useFakeTimers|spyOn)|overridePorts|process\.env\[[^\]]*\] *=|delete process\.env/.test(source);
  })
  .map((name) => `test/api/${name}`);

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/project-times.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.ts', '**/*.test.tsx'],
          exclude: [...ignored, 'test/e2e/**', ...SHARED_API],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: SHARED_API,
          exclude: ignored,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: ignored,
          testTimeout: 90_000,
          // The browser files of a worker share one module graph: each file imported the runtime,
          // playwright and the handlers its pages call again (about a tenth of the browser files'
          // CPU). Each file starts its own runtime, which sets the handlers' environment, DynamoDB
          // client and ports afresh (infra/local/handler-env.ts); what modules keep in memory is
          // keyed by the ids of a file's own data.
          isolate: false,
        },
      },
    ],
  },
});
