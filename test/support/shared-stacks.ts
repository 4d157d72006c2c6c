/**
 * Where the run's shared stacks are (test/support/portal-stack.ts synthesizes them, in a process
 * of its own: synth-shared-stacks.ts) and how a test waits for them; without the CDK, so that the
 * global setup does not load it.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Where the global setup leaves the shared stacks' templates and the full stack's web build. */
export interface SharedStacks {
  readonly defaultTemplate: string;
  readonly fullTemplate: string;
  readonly webDist: string;
  /** The folder of the above, where `ready` or `failed` says that the synthesis has ended (synth-shared-stacks.ts). */
  readonly dir: string;
}

/** Written into `SharedStacks.dir` when the bundles and both templates are there. */
export const READY_FILE = 'ready';
/** Written into `SharedStacks.dir`, with the error, when the synthesis failed. */
export const FAILED_FILE = 'failed';

/** Where `synthesizeSharedStacks(bundleRoot, dir)` leaves its templates and web build. */
export function sharedStacksIn(dir: string): SharedStacks {
  return { defaultTemplate: path.join(dir, 'default.template.json'), fullTemplate: path.join(dir, 'full.template.json'), webDist: path.join(dir, 'web'), dir };
}

/**
 * Waits until the global setup's synthesis (synth-shared-stacks.ts) has ended, polling its
 * folder; throws its error when it failed or ended without a word (killed, out of memory).
 */
export async function whenSharedStacksReady(stacks: SharedStacks, timeoutMs = 15 * 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(path.join(stacks.dir, READY_FILE))) return;
    const failed = path.join(stacks.dir, FAILED_FILE);
    if (fs.existsSync(failed)) throw new Error(`the shared stacks were not synthesized: ${fs.readFileSync(failed, 'utf8')}`);
    if (Date.now() > until) throw new Error(`the shared stacks were not synthesized within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
