/**
 * JavaScript size per route group of the built web app (`npm run build:web` first), gzipped as
 * the browser downloads it. Fails when the login route exceeds its budget.
 *
 * - login route: the entry chunk and everything it imports statically, plus one language file
 *   (the app loads exactly one before its first render; the largest is counted);
 * - each lazily loaded part (a dynamic import): its chunk and its static imports that the login
 *   route has not already loaded.
 *
 * Usage: npm run size [-- --json]
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The login route's budget. It carries the whole route manifest with its request schemas (the web
 * app's calls take their paths from shared/routes.ts), so every capability's routes weigh on it:
 * the API keys, webhooks and push routes brought it from 149.5 to 150.1 kB, and the budget from
 * 150 to 152 kB. A path-only manifest for the browser would take the schemas off this route.
 */
export const LOGIN_BUDGET_BYTES = 152 * 1000;

export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface GroupSize {
  group: string;
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

const isJs = (file: string) => /\.m?js$/.test(file);
const isLanguage = (key: string) => /(^|\/)shared\/i18n\/(en|sv|no)\.ts$/.test(key);

/** `key` and every chunk it imports statically, transitively. */
export function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const dep of manifest[key].imports ?? []) staticClosure(manifest, dep, into);
  return into;
}

export function routeGroups(manifest: Manifest, sizeOf: (file: string) => { raw: number; gzip: number }): GroupSize[] {
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error('The manifest has no entry chunk.');

  const measure = (group: string, keys: Iterable<string>): GroupSize => {
    const files = [...keys].map((k) => (manifest[k] as ManifestChunk).file).filter(isJs);
    const sizes = files.map(sizeOf);
    return {
      group,
      files,
      rawBytes: sizes.reduce((sum, s) => sum + s.raw, 0),
      gzipBytes: sizes.reduce((sum, s) => sum + s.gzip, 0),
    };
  };

  const login = staticClosure(manifest, entryKey);
  const languages = Object.keys(manifest).filter(isLanguage);
  const largestLanguage = languages
    .map((k) => ({ k, gzip: sizeOf((manifest[k] as ManifestChunk).file).gzip }))
    .sort((a, b) => b.gzip - a.gzip)[0];
  const loginKeys = new Set(login);
  if (largestLanguage) loginKeys.add(largestLanguage.k);

  const groups: GroupSize[] = [measure('login route (entry + static imports + 1 language)', loginKeys)];
  const lazyKeys = Object.keys(manifest)
    .filter((k) => manifest[k]?.isDynamicEntry && !isLanguage(k) && k !== entryKey)
    .sort();
  for (const key of lazyKeys) {
    const own = [...staticClosure(manifest, key)].filter((k) => !login.has(k));
    const chunk = manifest[key] as ManifestChunk;
    groups.push(measure(`lazy: ${chunk.src ?? chunk.name ?? key}`, own));
  }
  return groups;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function main(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const dist = join(root, 'web', 'dist');
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`No ${manifestPath}: run \`npm run build:web\` first.`);
    process.exit(2);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const cache = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let size = cache.get(file);
    if (!size) {
      const bytes = readFileSync(join(dist, file));
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      cache.set(file, size);
    }
    return size;
  };

  const groups = routeGroups(manifest, sizeOf);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ budgetBytes: LOGIN_BUDGET_BYTES, groups }, null, 2));
  } else {
    const width = Math.max(...groups.map((g) => g.group.length), 10);
    console.log(`${'route group'.padEnd(width)}  ${'files'.padStart(5)}  ${'raw'.padStart(10)}  ${'gzip'.padStart(10)}`);
    for (const g of groups) {
      console.log(`${g.group.padEnd(width)}  ${String(g.files.length).padStart(5)}  ${kB(g.rawBytes).padStart(10)}  ${kB(g.gzipBytes).padStart(10)}`);
    }
  }

  const login = groups[0] as GroupSize;
  if (login.gzipBytes > LOGIN_BUDGET_BYTES) {
    console.error(`\nThe login route loads ${kB(login.gzipBytes)} of gzipped JavaScript; the budget is ${kB(LOGIN_BUDGET_BYTES)}.`);
    process.exit(1);
  }
  console.log(`\nLogin route: ${kB(login.gzipBytes)} of ${kB(LOGIN_BUDGET_BYTES)} budget (gzip -9, 1 kB = 1000 bytes).`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
