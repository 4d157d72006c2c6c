/**
 * The CloudFront Function code: brand-router.ts bundled into a plain script together with the
 * brand table from context and the `handler` CloudFront calls. Generated, never hand-written, so
 * the tested module and the deployed function cannot drift apart.
 */
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { BrandDomains } from './brand-router';

/** CloudFront's limit for a function's code. */
export const MAX_FUNCTION_CODE_BYTES = 10_240;

export function brandRouterCode(domains: BrandDomains): string {
  const entry =
    "import { routeViewerRequest } from './brand-router';\n" +
    `var BRAND_DOMAINS = ${JSON.stringify(domains)};\n` +
    'function handler(event) {\n  return routeViewerRequest(event, BRAND_DOMAINS);\n}\n';
  const out = buildSync({
    stdin: { contents: entry, resolveDir: import.meta.dirname, sourcefile: 'brand-router-function.js', loader: 'js' },
    bundle: true,
    write: false,
    // ESM output of an entry that exports nothing is a plain script: top-level declarations
    // and no module wrapper or export helpers. Tree shaking is off so `handler` survives.
    format: 'esm',
    treeShaking: false,
    platform: 'neutral',
    // CloudFront's JS 2.0 runtime is ES5.1 plus parts of ES6 to ES12 (let, const, arrow functions,
    // template literals); the router's source keeps to those.
    target: 'es2017',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    // Fixed so the path comments in the output, and so the deployed code, do not depend on the cwd.
    absWorkingDir: path.resolve(import.meta.dirname, '..'),
  });
  const file = out.outputFiles[0];
  if (!file) throw new Error(`esbuild produced no output for ${path.join(import.meta.dirname, 'brand-router.ts')}`);
  const code = file.text;
  if (/^\s*(import|export)\b/m.test(code)) throw new Error('The brand router CloudFront Function must be a plain script');
  const bytes = Buffer.byteLength(code, 'utf8');
  if (bytes > MAX_FUNCTION_CODE_BYTES) {
    throw new Error(`The brand router CloudFront Function is ${bytes} bytes, over the ${MAX_FUNCTION_CODE_BYTES}-byte limit`);
  }
  return code;
}
