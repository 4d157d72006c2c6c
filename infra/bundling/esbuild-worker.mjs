// Runs the Lambda bundles for infra/bundling/bundle.ts in a child process. CDK constructs are
// synchronous and esbuild's buildSync cannot take plugins, so the stack hands every bundle of a
// synth to this worker at once and waits: the builds run in parallel and may use the stub plugin.
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

async function one({ name, entry, outfile, analysisFile }) {
  const common = {
    stdin: { contents: entry, resolveDir: repoRoot, sourcefile: `${name}.entry.ts`, loader: 'ts' },
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
    plugins: [stubPlugin],
    // Files a bundle carries as data: fonts as bytes (Uint8Array), SVG logos as text.
    loader: { '.woff': 'binary', '.svg': 'text' },
  };
  try {
    const result = await build({
      ...common,
      outfile,
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      banner: { js: "import { createRequire as __createRequire } from 'node:module';const require = __createRequire(import.meta.url);" },
    });
    if (result.errors.length === 0 && analysisFile) {
      const analysis = await build({ ...common, outfile: analysisFile, minify: false, sourcemap: false });
      if (analysis.errors.length) return { name, errors: analysis.errors.map(format) };
    }
    return { name, errors: result.errors.map(format) };
  } catch (error) {
    const errors = Array.isArray(error?.errors) && error.errors.length ? error.errors.map(format) : [String(error?.message ?? error)];
    return { name, errors };
  }
}

/**
 * A few builds at a time: esbuild runs each on all cores anyway, and every build in flight holds
 * its modules' syntax trees, so all of a stack's bundles at once took about 8 GB.
 */
const CONCURRENCY = Math.max(1, Number(process.env.BUNDLE_CONCURRENCY) || 4);
const results = new Array(builds.length);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(CONCURRENCY, builds.length) }, async () => {
    while (next < builds.length) {
      const i = next++;
      results[i] = await one(builds[i]);
    }
  }),
);
process.stdout.write(JSON.stringify({ results }));
