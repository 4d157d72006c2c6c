// Runs the Lambda bundles for infra/bundling/bundle.ts in a child process. CDK constructs are
// synchronous and esbuild's buildSync cannot take plugins, so the stack hands every bundle of a
// synth to this worker at once and waits: the builds run in parallel and may use the stub plugin.
//
// stdin:  { repoRoot, builds: [{ name, entry, outfile }], stubs: [{ path, contents }] }
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
    b.onLoad({ filter: /.*/, namespace: 'lambda-stub' }, (args) => ({ contents: args.pluginData, loader: 'js' }));
  },
};

function format(message) {
  const where = message.location ? `${message.location.file}:${message.location.line}: ` : '';
  return `${where}${message.text}`;
}

async function one({ name, entry, outfile }) {
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: repoRoot, sourcefile: `${name}.entry.ts`, loader: 'ts' },
      absWorkingDir: repoRoot,
      tsconfig: path.join(repoRoot, 'tsconfig.json'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      outfile,
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      legalComments: 'none',
      // ESM builds of packages first; CommonJS ones still get a working `require` for built-ins.
      mainFields: ['module', 'main'],
      banner: { js: "import { createRequire as __createRequire } from 'node:module';const require = __createRequire(import.meta.url);" },
      logLevel: 'silent',
      plugins: [stubPlugin],
    });
    return { name, errors: result.errors.map(format) };
  } catch (error) {
    const errors = Array.isArray(error?.errors) && error.errors.length ? error.errors.map(format) : [String(error?.message ?? error)];
    return { name, errors };
  }
}

const results = await Promise.all(builds.map(one));
process.stdout.write(JSON.stringify({ results }));
