/**
 * Lambda bundles: one ES module per function, built by esbuild from an in-memory entry that
 * imports the function's handler files and wires them into a dispatcher from
 * functions/platform/dispatch.ts. The AWS SDK v3 is bundled, not taken from the runtime, so the
 * clients are the versions package.json pins.
 *
 * Infra never imports functions/ code: the entries name handler files by path only.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { handlerPath, routeKey, type RouteDef } from '../../shared/routes';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const WORKER = path.join(import.meta.dirname, 'esbuild-worker.mjs');
const DISPATCH = 'functions/platform/dispatch.ts';

/** The font and logo files a report PDF embeds (functions/reports/render/embedded-files.ts). */
const reportEmbeddedFiles = [
  "import FONT_REGULAR from '@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff';",
  "import FONT_BOLD from '@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff';",
  "import FONT_REGULAR_EXT from '@fontsource/noto-sans/files/noto-sans-latin-ext-400-normal.woff';",
  "import FONT_BOLD_EXT from '@fontsource/noto-sans/files/noto-sans-latin-ext-700-normal.woff';",
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((id) => `import icon${id} from './web/public/logos/icon-${id}.svg';`),
  'export { FONT_REGULAR, FONT_BOLD, FONT_REGULAR_EXT, FONT_BOLD_EXT };',
  'export const BRAND_ICONS = [icon0, icon1, icon2, icon3, icon4, icon5, icon6, icon7];',
  '',
].join('\n');

/**
 * Modules replaced in every Lambda bundle (their imports resolve from the repository root):
 *
 * - The port container imports the embedded adapters statically; on AWS (RUNTIME=aws, always set
 *   by the stack) that branch never runs, and bundling it would drag in the local gazetteer and
 *   broker clients, some of which read data files at import time and would break the cold start.
 *   The stub keeps the export and fails loudly.
 * - The report renderer's embedded files, which the source reads from node_modules and
 *   web/public: in a bundle they are imported, so esbuild's binary (.woff) and text (.svg) loaders
 *   put their bytes into the bundle (docs/decisions/0035-report-exports.md).
 */
export const LAMBDA_STUBS: readonly { path: string; contents: string }[] = [
  {
    path: path.join(REPO_ROOT, 'functions/platform/adapters/embedded/index'),
    contents:
      'export function createEmbeddedPorts() {\n' +
      "  throw new Error('The embedded adapters are not part of Lambda bundles: RUNTIME must be aws');\n" +
      '}\n',
  },
  { path: path.join(REPO_ROOT, 'functions/reports/render/embedded-files'), contents: reportEmbeddedFiles },
];

export class BundlingError extends Error {
  override name = 'BundlingError';
}

/** A module to import into an entry, named by a path relative to the repository or absolute. */
export interface HandlerImport {
  /** Where the handler lives, for messages: `functions/content/post-announcement.ts`. */
  readonly source: string;
  /** What it serves, for messages: `route POST /api/v1/announcement`. */
  readonly purpose: string;
}

export interface BundleRequest {
  /** Directory name under the bundle root, usually the capability. */
  readonly name: string;
  /** The entry's source (TypeScript), imports relative to the repository root. */
  readonly entry: string;
  /** Every handler file the entry imports; checked before esbuild runs. */
  readonly handlers: readonly HandlerImport[];
}

function importPath(source: string): string {
  if (path.isAbsolute(source)) return JSON.stringify(source);
  return JSON.stringify(`./${source.replace(/\\/g, '/')}`);
}

/** Imports each distinct file once; returns the local name per source. */
function importLines(sources: readonly string[]): { lines: string[]; local: Map<string, string> } {
  const local = new Map<string, string>();
  const lines = [`import * as dispatch from ${importPath(DISPATCH)};`];
  for (const source of sources) {
    if (local.has(source)) continue;
    const name = `h${local.size}`;
    local.set(source, name);
    lines.push(`import { handler as ${name} } from ${importPath(source)};`);
  }
  return { lines, local };
}

/** The entry of an HTTP function: route key -> handler of each route. */
export function httpEntry(routes: readonly RouteDef[]): string {
  const { lines, local } = importLines(routes.map((r) => handlerPath(r)));
  const table = routes.map((r) => `  ${JSON.stringify(routeKey(r))}: ${local.get(handlerPath(r))},`);
  return [...lines, 'export const handler = dispatch.createDispatcher({', ...table, '});', ''].join('\n');
}

/** The entry of the ingest function: batches of the ingest stream, by IoT rule topic filter -> handler. */
export function topicEntry(rules: readonly { topicFilter: string; source: string }[]): string {
  const { lines, local } = importLines(rules.map((r) => r.source));
  const table = rules.map((r) => `  { topicFilter: ${JSON.stringify(r.topicFilter)}, handler: ${local.get(r.source)} },`);
  return [...lines, 'export const handler = dispatch.createStreamDispatcher([', ...table, ']);', ''].join('\n');
}

/** The entry of the jobs function: job name -> handler. */
export function jobEntry(jobs: readonly { name: string; source: string }[]): string {
  const { lines, local } = importLines(jobs.map((j) => j.source));
  const table = jobs.map((j) => `  ${JSON.stringify(j.name)}: ${local.get(j.source)},`);
  return [...lines, 'export const handler = dispatch.createJobDispatcher({', ...table, '});', ''].join('\n');
}

export function sourceExists(source: string): boolean {
  return fs.existsSync(path.isAbsolute(source) ? source : path.join(REPO_ROOT, source));
}

function checkHandlers(requests: readonly BundleRequest[]): void {
  const missing = requests.flatMap((r) =>
    r.handlers.filter((h) => !sourceExists(h.source)).map((h) => `${h.source} (${h.purpose}, function ${r.name})`),
  );
  if (missing.length) {
    throw new BundlingError(
      `Cannot bundle the Lambda functions: handler file(s) missing:\n  ${missing.join('\n  ')}\n` +
        'Each must exist and export `handler`.',
    );
  }
}

// Bundles already built by this process, by output root, name and entry.
const built = new Map<string, string>();

/**
 * The unminified, tree-shaken copy of a bundle (`<bundle dir>.analysis.js`, outside the Lambda
 * asset), which infra/bundling/resource-usage.ts reads.
 */
export function analysisFileOf(bundleDir: string): string {
  return `${bundleDir}.analysis.js`;
}

interface Build {
  name: string;
  entry: string;
  outfile: string;
  analysisFile: string;
  key: string;
  /** Shared roots: the directory the staged build moves to once complete. */
  final?: string;
}

/** A complete bundle directory: its code and, beside it, its analysis copy. */
const isComplete = (dir: string) => fs.existsSync(path.join(dir, 'index.mjs')) && fs.existsSync(analysisFileOf(dir));

/**
 * Builds every request (together, in one esbuild child process) into `<root>/<name>/index.mjs`
 * and returns the directory per name. Requests this process has built before are not rebuilt.
 *
 * With `shared`, the root is shared by processes that see the same sources (the test run's worker
 * processes): each bundle goes to `<root>/<name>-<hash of its entry>`, is built in a staging
 * folder and moved there in one rename once complete, so a process reuses what another built and
 * never reads half a bundle; two processes building the same one at once both succeed.
 */
export function bundleAll(root: string, requests: readonly BundleRequest[], options: { shared?: boolean } = {}): Map<string, string> {
  checkHandlers(requests);
  const dirs = new Map<string, string>();
  const toBuild: Build[] = [];
  for (const r of requests) {
    const key = createHash('sha256').update(root).update('\0').update(r.name).update('\0').update(r.entry).digest('hex');
    if (options.shared) {
      const dir = path.join(root, `${r.name}-${key.slice(0, 16)}`);
      dirs.set(r.name, dir);
      if (isComplete(dir)) continue;
      const staging = path.join(fs.mkdtempSync(path.join(root, `.staging-${r.name}-`)), 'bundle');
      fs.mkdirSync(staging);
      toBuild.push({ name: r.name, entry: r.entry, outfile: path.join(staging, 'index.mjs'), analysisFile: analysisFileOf(staging), key, final: dir });
      continue;
    }
    const dir = path.join(root, r.name);
    dirs.set(r.name, dir);
    if (built.get(key) === dir && isComplete(dir)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(analysisFileOf(dir), { force: true });
    fs.mkdirSync(dir, { recursive: true });
    toBuild.push({ name: r.name, entry: r.entry, outfile: path.join(dir, 'index.mjs'), analysisFile: analysisFileOf(dir), key });
  }
  if (toBuild.length === 0) return dirs;

  const payload = JSON.stringify({
    repoRoot: REPO_ROOT,
    builds: toBuild.map(({ name, entry, outfile, analysisFile }) => ({ name, entry, outfile, analysisFile })),
    stubs: LAMBDA_STUBS,
  });
  const child = spawnSync(process.execPath, [WORKER], {
    input: payload,
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.error) throw new BundlingError(`Could not run esbuild: ${child.error.message}`);
  if (child.status !== 0) throw new BundlingError(`esbuild worker failed (exit ${child.status}):\n${child.stderr}`);
  const { results } = JSON.parse(child.stdout) as { results: { name: string; errors: string[] }[] };
  const failed = results.filter((r) => r.errors.length);
  if (failed.length) {
    throw new BundlingError(
      `Bundling failed:\n${failed.map((f) => `  function ${f.name}:\n    ${f.errors.join('\n    ')}`).join('\n')}`,
    );
  }
  for (const t of toBuild) {
    if (t.final) publishStaged(path.dirname(t.outfile), t.final);
    else built.set(t.key, path.dirname(t.outfile));
  }
  return dirs;
}

/**
 * Moves a staged bundle into place: the analysis copy first (a rename replaces a file another
 * process put there, with the same bytes), then the directory, whose appearance marks the bundle
 * complete. When another process's directory got there first, ours is dropped.
 */
function publishStaged(staged: string, final: string): void {
  fs.renameSync(analysisFileOf(staged), analysisFileOf(final));
  try {
    fs.renameSync(staged, final);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !isComplete(final)) throw error;
  }
  fs.rmSync(path.dirname(staged), { recursive: true, force: true });
}
