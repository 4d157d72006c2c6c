/**
 * What the browser benchmarks (bench:map, bench:lists) share: the built web app, an in-memory
 * embedded runtime and a headless Chromium, both stopped on Ctrl-C or a kill so that neither
 * DynamoDB Local's JVM nor Chromium is left behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { projectRoot, startEmbeddedRuntime } from '../../infra/local/runtime';
import { CHROMIUM } from '../../test/support/chromium';

type Log = (text: string) => void;

/** Builds web/dist when it is missing (a benchmark measures the app as built). */
export function ensureWebBuilt(log: Log): void {
  if (existsSync(join(projectRoot, 'web', 'dist', 'index.html'))) return;
  log('web/dist is missing: building the web app...');
  execFileSync(process.execPath, [join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], { cwd: projectRoot, stdio: 'inherit' });
}

/** Starts the runtime (serving `webDir`, or web/dist) and Chromium with `chromiumArgs`. */
export async function startBrowserBench(options: { chromiumArgs: string[]; webDir?: string; log: Log }): Promise<{
  runtime: Awaited<ReturnType<typeof startEmbeddedRuntime>>;
  browser: Browser;
}> {
  const runtime = await startEmbeddedRuntime({ port: 0, mqttPort: 0, dataDir: null, host: '127.0.0.1', seed: false, ...(options.webDir ? { webDir: options.webDir } : {}) });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: options.chromiumArgs });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      options.log(`${signal}: stopping`);
      void Promise.allSettled([browser.close(), runtime.stop()]).then(() => process.exit(130));
    });
  }
  return { runtime, browser };
}
