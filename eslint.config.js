// Lint: TypeScript rules plus the dependency direction of docs/architecture.md, enforced:
// web and functions import shared; infra imports shared and names handler files (only the
// embedded runtime in infra/local hosts handler code, as Lambda does); shared imports nothing of
// ours and nothing of Node, AWS or React; within functions, platform imports neither domain code
// nor a capability, and domain code (functions/domain) imports no capability; no import cycles
// anywhere. import-x/no-cycle skips
// type-only imports and has no option to include them; test/contract/import-cycles.test.ts
// (scripts/import-cycles.ts) checks the whole graph with them.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Every folder of functions/ but platform and domain holds a capability's code (or, as
// schedules, domain code of its own folder that predates functions/domain).
const capabilityFolders = readdirSync(fileURLToPath(new globalThis.URL('./functions/', import.meta.url)), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'platform' && entry.name !== 'domain')
  .map((entry) => `./functions/${entry.name}`);

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'web/dist/', '.data/', '.test-data/', 'coverage/', 'test-results/', 'clients/typescript/schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './shared', from: ['./functions', './web', './infra', './test', './scripts'], message: 'shared imports nothing of ours' },
            { target: './web', from: ['./functions', './infra'], message: 'web reaches the backend over HTTP only' },
            { target: './functions', from: ['./web', './infra', './test', './scripts'], message: 'functions import shared and their own capability code' },
            { target: './functions/platform', from: capabilityFolders, message: 'platform (middleware, ports, adapters) imports no capability' },
            {
              target: './functions/platform',
              from: './functions/domain',
              // The auth middleware parses the session, the user and the account's flags by their owners' schemas (pure zod, no table access).
              except: ['./session/schema.ts', './user/schema.ts', './account/schema.ts'],
              message: 'platform imports no domain code but the schemas of the items the auth middleware reads',
            },
            { target: './functions/domain', from: capabilityFolders, message: 'domain code imports shared and platform, never a capability' },
            {
              target: ['./infra/*.ts', './infra/!(local)/**'],
              from: ['./functions', './web'],
              message: 'the stack names handler files; only infra/local hosts handler code',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests may reach the cross-cutting test support (DynamoDB Local, the embedded runtime).
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [{ target: './shared', from: ['./functions', './web', './infra', './scripts'], message: 'shared imports nothing of ours' }] },
      ],
    },
  },
  {
    // The API tests check every successful answer against its route's response schema, through
    // apiFetch or call of test/support/http.ts; a bare fetch would skip that check.
    files: ['test/api/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: "Use apiFetch or call (test/support/http.ts): they check each answer against its route's response schema." },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'crypto', 'child_process'], message: 'shared runs in the browser too' },
            { group: ['@aws-sdk/*', 'aws-cdk-lib', 'aws-cdk-lib/*', 'aws-lambda'], message: 'shared knows no cloud' },
            { group: ['react', 'react-dom', 'react/*', '@mantine/*'], message: 'shared knows no UI' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
