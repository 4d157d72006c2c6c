/**
 * `npm start`'s web build: runs `vite build` only when what the build reads has changed since the
 * last build. The stamp `web/dist/.sources-sha256` holds the SHA-256 of every file under `web/`
 * (but `web/dist`), under `shared/` (the web app imports its schemas, texts and brands), and of
 * `package.json` and `package-lock.json` (the libraries), with their paths; it is written after a
 * build succeeded, and a build empties `web/dist` first, so a failed build leaves no stamp.
 *
 *   tsx scripts/build-web.ts           build if needed
 *   tsx scripts/build-web.ts --force   build anyway
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const STAMP_FILE = '.sources-sha256';
/** What the web build reads, relative to the project root: directories whole, or single files. */
export const WEB_BUILD_INPUTS = ['web', 'shared', 'package.json', 'package-lock.json'] as const;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

function filesUnder(root: string, path: string, out: string[]): void {
  const full = join(root, path);
  if (!existsSync(full)) return;
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    const child = path ? `${path}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (SKIPPED_DIRS.has(entry.name) || child === 'web/dist') continue;
      filesUnder(root, child, out);
    } else if (entry.isFile()) {
      out.push(child);
    }
  }
}

/** The SHA-256 over the paths and contents of the web build's inputs under `root`, in path order. */
export function webSourcesHash(root: string, inputs: readonly string[] = WEB_BUILD_INPUTS): string {
  const files: string[] = [];
  for (const input of inputs) {
    const full = join(root, input);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) filesUnder(root, input, files);
    else files.push(input);
  }
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Why the web app must be built, or null when `web/dist` was built from exactly these sources. */
export function buildReason(root: string, hash = webSourcesHash(root)): string | null {
  const dist = join(root, 'web', 'dist');
  if (!existsSync(join(dist, 'index.html'))) return 'no built web app';
  const stamp = join(dist, STAMP_FILE);
  if (!existsSync(stamp)) return 'the built web app has no stamp';
  return readFileSync(stamp, 'utf8').trim() === hash ? null : 'its sources changed';
}

export function writeStamp(root: string, hash: string): void {
  writeFileSync(join(root, 'web', 'dist', STAMP_FILE), `${hash}\n`);
}

function main(): void {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const hash = webSourcesHash(root);
  const reason = process.argv.includes('--force') ? 'asked to' : buildReason(root, hash);
  if (!reason) {
    console.log('Web app: web/dist is up to date (its sources are unchanged since it was built)');
    return;
  }
  console.log(`Web app: building (${reason})...`);
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', join(root, 'web', 'vite.config.ts')], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  writeStamp(root, hash);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
