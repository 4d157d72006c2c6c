/**
 * Where the run's shared stacks are (test/support/portal-stack.ts synthesizes them, in a process
 * of its own: synth-shared-stacks.ts), how the first infrastructure test of a run starts that
 * process and every one waits for it, and how the global setup stops it; without the CDK, so that
 * the global setup does not load it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
/** The synthesis process's id (the leader of its process group: its esbuild children are in it). */
const PID_FILE = 'pid';
const SCRIPT = fileURLToPath(new URL('./synth-shared-stacks.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where `synthesizeSharedStacks(bundleRoot, dir)` leaves its templates and web build. */
export function sharedStacksIn(dir: string): SharedStacks {
  return { defaultTemplate: path.join(dir, 'default.template.json'), fullTemplate: path.join(dir, 'full.template.json'), webDist: path.join(dir, 'web'), dir };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Waits until the run's synthesis (synth-shared-stacks.ts) has ended, polling its folder; the
 * first caller of a run starts it (a folder made atomically decides who), in a process group of
 * its own that outlives the test file (the global setup stops it at the end of the run). A run
 * without infrastructure tests synthesizes nothing. Throws the synthesis's error when it failed,
 * or ended without a word (killed, out of memory).
 */
export async function whenSharedStacksReady(stacks: SharedStacks, bundleRoot: string, timeoutMs = 15 * 60_000): Promise<void> {
  try {
    fs.mkdirSync(path.join(stacks.dir, 'started'));
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, bundleRoot, stacks.dir], { cwd: ROOT, detached: true, stdio: 'ignore' });
    fs.writeFileSync(path.join(stacks.dir, PID_FILE), String(child.pid));
    child.unref();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(path.join(stacks.dir, READY_FILE))) return;
    const failed = path.join(stacks.dir, FAILED_FILE);
    if (fs.existsSync(failed)) throw new Error(`the shared stacks were not synthesized: ${fs.readFileSync(failed, 'utf8')}`);
    const pid = Number(fs.existsSync(path.join(stacks.dir, PID_FILE)) ? fs.readFileSync(path.join(stacks.dir, PID_FILE), 'utf8') : NaN);
    // Its last act is writing one of the two files: gone without either, it will write none.
    if (pid > 0 && !alive(pid) && !fs.existsSync(path.join(stacks.dir, READY_FILE)) && !fs.existsSync(failed)) {
      throw new Error('the shared stacks were not synthesized: synth-shared-stacks.ts ended before it was done');
    }
    if (Date.now() > until) throw new Error(`the shared stacks were not synthesized within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** At the end of a run: stops the synthesis and its esbuild processes if it still runs. */
export function stopSharedStacks(stacks: SharedStacks): void {
  const file = path.join(stacks.dir, PID_FILE);
  if (!fs.existsSync(file)) return;
  const pid = Number(fs.readFileSync(file, 'utf8'));
  try {
    if (pid > 0) process.kill(-pid, 'SIGKILL');
  } catch {
    // Ended already.
  }
}
