import { defineConfig } from 'vitest/config';

// Two projects: everything that runs in Node (unit, integration against DynamoDB Local, CDK
// assertions, API black-box against the embedded runtime) and the browser end-to-end tests in
// real Chromium, which run one file at a time. One DynamoDB Local serves the whole run.
const ignored = ['**/node_modules/**', 'cdk.out/**', 'web/dist/**', '.data/**'];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.ts', '**/*.test.tsx'],
          exclude: [...ignored, 'test/e2e/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: ignored,
          fileParallelism: false,
          testTimeout: 90_000,
        },
      },
    ],
  },
});
