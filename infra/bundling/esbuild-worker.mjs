// Runs the Lambda bundles for infra/bundling/bundle.ts in a child process. CDK constructs are
// synchronous and esbuild's buildSync cannot take plugins, so the stack hands every bundle of a
// synth to this worker at once and waits: they are built together (below) and may use the stub plugin.
//
// Each build also writes an unminified copy beside the bundle (not inside its directory, which is
// the Lambda asset): the same modules after tree shaking, with esbuild's `// <path>` line before
// each module, for the stack to read which tables and ports the function's code really uses.
//
// stdin:  { repoRoot, builds: [{ name, entry, outfile, analysisFile }], stubs: [{ path, contents }] }
// stdout: { results: [{ name, errors: string[] }] }
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { build } from 'esbuild';

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const { repoRoot, builds, stubs } = input;

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces the modules listed in `stubs` (absolute paths without extension) by their stub code. */
const stubPlugin = {
  name: 'lambda-stubs',
  setup(b) {
    if (!stubs.length) return;
    const filter = new RegExp(`(${stubs.map((s) => escape(path.basename(s.path))).join('|')})(\\.[cm]?[jt]s)?$`);
    b.onResolve({ filter }, (args) => {
      if (!args.path.startsWith('.') && !path.isAbsolute(args.path)) return undefined;
      const resolved = path.resolve(args.resolveDir, args.path).replace(/\.[cm]?[jt]s$/, '');
      const stub = stubs.find((s) => s.path === resolved);
      return stub ? { path: resolved, namespace: 'lambda-stub', pluginData: stub.contents } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lambda-stub' }, (args) => ({ contents: args.pluginData, loader: 'js', resolveDir: repoRoot }));
  },
};

function format(message) {
  const where = message.location ? `${message.location.file}:${message.location.line}: ` : '';
  return `${where}${message.text}`;
}

const BANNER = "import { createRequire as __createRequire } from 'node:module';const require = __createRequire(import.meta.url);";

/** What every build shares; `entries` are served by a plugin from the payload's in-memory sources. */
function options(entries) {
  /** Serves `entry:<name>` from the payload: the in-memory entry of that bundle. */
  const entryPlugin = {
    name: 'lambda-entries',
    setup(b) {
      b.onResolve({ filter: /^entry:/ }, (args) => ({ path: args.path.slice('entry:'.length), namespace: 'lambda-entry' }));
      b.onLoad({ filter: /.*/, namespace: 'lambda-entry' }, (args) => ({ contents: entries.get(args.path), loader: 'ts', resolveDir: repoRoot }));
    },
  };
  return {
    absWorkingDir: repoRoot,
    tsconfig: path.join(repoRoot, 'tsconfig.json'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    legalComments: 'none',
    // ESM builds of packages first; CommonJS ones still get a working `require` for built-ins.
    mainFields: ['module', 'main'],
    logLevel: 'silent',
    plugins: [entryPlugin, stubPlugin],
    // Files a bundle carries as data: fonts as bytes (Uint8Array), SVG logos as text.
    loader: { '.woff': 'binary', '.svg': 'text' },
  };
}

/** The common folder of every output, and each output's path in it without its extension. */
function layout(files) {
  const dirs = files.map((f) => path.dirname(f).split(path.sep));
  let common = dirs[0];
  for (const d of dirs.slice(1)) {
    let i = 0;
    while (i < common.length && i < d.length && common[i] === d[i]) i++;
    common = common.slice(0, i);
  }
  const outdir = common.join(path.sep) || path.sep;
  return { outdir, out: (file, ext) => path.relative(outdir, file).slice(0, -ext.length) };
}

/**
 * Builds `list` in one esbuild build per kind (the minified bundle with its source map, then the
 * unminified analysis copy): every module is read and parsed once for all the bundles instead of
 * once per bundle, which took most of the time (the AWS SDK and the shared code are in nearly
 * all of them). Each bundle is still linked and tree-shaken on its own (no code splitting).
 */
async function together(list) {
  const entries = new Map(list.map((b) => [b.name, b.entry]));
  const common = options(entries);
  const bundles = layout(list.map((b) => b.outfile));
  await build({
    ...common,
    entryPoints: list.map((b) => ({ in: `entry:${b.name}`, out: bundles.out(b.outfile, '.mjs') })),
    outdir: bundles.outdir,
    outExtension: { '.js': '.mjs' },
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    banner: { js: BANNER },
  });
  const withAnalysis = list.filter((b) => b.analysisFile);
  if (withAnalysis.length === 0) return;
  const copies = layout(withAnalysis.map((b) => b.analysisFile));
  await build({
    ...common,
    entryPoints: withAnalysis.map((b) => ({ in: `entry:${b.name}`, out: copies.out(b.analysisFile, '.js') })),
    outdir: copies.outdir,
    minify: false,
    sourcemap: false,
  });
}

/** One bundle alone, to say which bundle an error of the build together belongs to. */
async function alone(b) {
  try {
    await together([b]);
    return { name: b.name, errors: [] };
  } catch (error) {
    const errors = Array.isArray(error?.errors) && error.errors.length ? error.errors.map(format) : [String(error?.message ?? error)];
    return { name: b.name, errors };
  }
}

let results;
try {
  await together(builds);
  results = builds.map((b) => ({ name: b.name, errors: [] }));
} catch {
  results = [];
  for (const b of builds) results.push(await alone(b));
}
process.stdout.write(JSON.stringify({ results }));
