/**
 * The shared stacks' synthesis as a process of its own, which the first infrastructure test of a
 * run starts beside the other test files (shared-stacks.ts): `node --import tsx
 * synth-shared-stacks.ts <bundle root> <stacks dir>`. It writes `ready` into the stacks folder
 * when the bundles and both templates are there, or `failed` with the error; every
 * infrastructure test waits for one of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { synthesizeSharedStacks } from './portal-stack';
import { FAILED_FILE, READY_FILE } from './shared-stacks';

const [bundleRoot, dir] = process.argv.slice(2);
if (!bundleRoot || !dir) throw new Error('usage: synth-shared-stacks.ts <bundle root> <stacks dir>');
try {
  synthesizeSharedStacks(bundleRoot, dir);
  fs.writeFileSync(path.join(dir, READY_FILE), '');
} catch (error) {
  fs.writeFileSync(path.join(dir, FAILED_FILE), error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
}
