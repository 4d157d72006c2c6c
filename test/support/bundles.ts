/**
 * Builds the Lambda bundles of the default stack into the run's shared bundle root once, before
 * any test file starts (test/support/global-setup.ts): the files that synthesize the stack
 * (test/infra/helpers.ts) then find every bundle complete instead of building them side by side.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export async function buildDefaultBundles(bundleRoot: string): Promise<void> {
  const { App } = await import('aws-cdk-lib');
  const { REPO_ROOT } = await import('../../infra/bundling/bundle');
  const { readConfig } = await import('../../infra/config');
  const { TrackingPortalStack } = await import('../../infra/stack');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bundles-synth-'));
  try {
    const cdkJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
    const app = new App({ context: cdkJson.context, outdir: scratch });
    // The constructor bundles; nothing is synthesized.
    new TrackingPortalStack(app, 'TrackingPortal', {
      env: { region: 'eu-north-1' },
      config: readConfig(app.node),
      bundleRoot,
      sharedBundleRoot: true,
      webDist: path.join(scratch, 'no-web-dist'),
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
