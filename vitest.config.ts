import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Four projects: what runs in Node (unit, integration against DynamoDB Local, CDK assertions,
// API black-box against the embedded runtime) in three (`unit`, `isolated`, `api`, below), and
// the browser end-to-end tests in real Chromium (`e2e`). All share one pool of workers and one
// queue, which vitest fills project by project in the order of their names (api, e2e, isolated,
// unit), each project's slowest files first by the durations of the last run: a project's first
// files start while the previous one's last still run, and the many short unit files come last
// and fill the cores while the last browser files finish. Browser files run side by side: each
// has its own runtime on ports of its own and its own table prefix, and reads the one web build. One DynamoDB Local serves the whole run (test/support/global-setup.ts), which
// also builds the web app when it is missing, once before any file starts; the first
// infrastructure test has the Lambda bundles and the shared stacks made beside the other files
// (test/support/shared-stacks.ts).
// Workers: three on two cores, as a browser file partly waits on Chromium and the runtime.
const ignored = ['**/node_modules/**', 'cdk.out/**', 'web/dist/**', '.data/**'];

/**
 * Files that share a worker's module graph (`isolate: false`): importing the modules they test once
 * per worker rather than once per file changes nothing they check when a file mocks no module,
 * global, timer or spy, overrides no port and writes no environment variable (all picked from the
 * source). Of them, the API black-box files (`api`) each start their own runtime, which sets the
 * handlers' environment, DynamoDB client and ports afresh (infra/local/handler-env.ts); the others
 * (`unit`) test code next to it, DynamoDB Local through per-file table prefixes, the CDK stacks,
 * the contract and the texts. Measured, three workers, the machine busy throughout: 34 API files
 * 309 CPU-seconds and 157 s isolated, 198 and 104 s shared; 197 other files 437 CPU-seconds and
 * 223 s isolated, 278 and 141 s shared. They also pass with the files in shuffled orders
 * (`--sequence.shuffle.files`). The files that mock (`isolated`) keep a fresh module graph each.
 */
const MOCKS = /vi\.(mock|doMock|hoisted|stubGlobal|stubEnv|useFakeTimers|setSystemTime|spyOn)|overridePorts|process\.env(\[[^\]]*\]|\.\w+) *=[^=]|delete process\.env/;
const ROOT = fileURLToPath(new URL('.', import.meta.url));
function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return ['node_modules', 'dist', 'cdk.out', '.data', 'e2e'].includes(entry.name) ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
const NODE_FILES = ['functions', 'infra', 'scripts', 'shared', 'test', 'web'].flatMap(testFiles);
const SHARING = NODE_FILES.filter((file) => !MOCKS.test(readFileSync(join(ROOT, file), 'utf8')));
const SHARED_API = SHARING.filter((file) => file.startsWith('test/api/') && readFileSync(join(ROOT, file), 'utf8').includes('startRuntime('));
const SHARED_UNIT = SHARING.filter((file) => !SHARED_API.includes(file));

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
    // Each file's tables are deleted when it ends (test/support/file-dynamo.ts).
    setupFiles: ['test/support/drop-tables.ts'],
    reporters: ['default', './test/support/project-times.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: SHARED_UNIT,
          exclude: ignored,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['**/*.test.ts', '**/*.test.tsx'],
          exclude: [...ignored, 'test/e2e/**', ...SHARING],
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
