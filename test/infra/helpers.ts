/**
 * Synthesizes the real stack for the infrastructure tests, with the context of cdk.json, an
 * offline-friendly fixed region and the run's shared bundle directory (each bundle is built once
 * per test run and reused by every stack every test file makes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import { AwsSolutionsChecks } from 'cdk-nag';
import { REPO_ROOT } from '../../infra/bundling/bundle';
import { readConfig } from '../../infra/config';
import { TrackingPortalStack, type TrackingPortalStackProps } from '../../infra/stack';

export const STACK_NAME = 'TrackingPortal';
export const REGION = 'eu-north-1';
export const FIXTURES = path.join(REPO_ROOT, 'test', 'infra', 'fixtures');
export const INGEST_FIXTURE = path.join(FIXTURES, 'ingest-handler.ts');
export const JOB_FIXTURE = path.join(FIXTURES, 'job-handler.ts');

// Everything a test process writes (bundles, web fixtures, cloud assemblies) lives under one
// temporary folder that goes when the process ends.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-infra-test-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
// The run's shared bundle root (test/support/global-setup.ts): every file reuses the bundles the
// first one built.
const bundleRoot = inject('bundleRoot');
/** A web build directory that never exists, so tests do not depend on `npm run build:web`. */
/** A cloud assembly folder for a test's App, removed with the rest of the scratch folder. */
export function scratchOutdir(): string {
  return fs.mkdtempSync(path.join(scratch, 'cdk.out-'));
}

export const NO_WEB_DIST = path.join(scratch, 'no-web-dist');

export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return cdkJson.context;
}

/** A directory holding a minimal web build. */
export function webDistFixture(): string {
  const dir = fs.mkdtempSync(path.join(scratch, 'web-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>portal</title>');
  fs.mkdirSync(path.join(dir, 'brands', '0'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'brands', '0', 'index.html'), '<!doctype html><title>brand 0</title>');
  return dir;
}

export interface SynthOptions extends Partial<Omit<TrackingPortalStackProps, 'config'>> {
  readonly context?: Record<string, unknown>;
  /** Keep the "web app is not deployed" warning (acknowledged by default: tests use no web build). */
  readonly keepWebWarning?: boolean;
  /** Register cdk-nag as infra/app.ts does, so the synth fails on an unacknowledged violation. */
  readonly nag?: boolean;
}

export function synth(options: SynthOptions = {}) {
  const { context, keepWebWarning, nag, ...props } = options;
  const app = new App({ context: { ...cdkJsonContext(), ...context }, outdir: scratchOutdir() });
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  const stack = new TrackingPortalStack(app, STACK_NAME, {
    env: { region: REGION },
    config: readConfig(app.node),
    bundleRoot,
    sharedBundleRoot: true,
    webDist: NO_WEB_DIST,
    ...props,
  });
  if (!keepWebWarning) {
    Validations.of(stack).acknowledge({ id: 'Annotation::tracking-portal:web-dist-missing', reason: 'tests run without a web build' });
  }
  const template = Template.fromStack(stack);
  return { app, stack, template };
}

/** Every IAM policy statement of the template (inline, default and managed policies). */
export function policyStatements(template: Template): { owner: string; statement: Record<string, unknown> }[] {
  const out: { owner: string; statement: Record<string, unknown> }[] = [];
  for (const type of ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
    for (const [owner, res] of Object.entries(template.findResources(type))) {
      const doc = (res as { Properties: { PolicyDocument: { Statement: Record<string, unknown>[] } } }).Properties.PolicyDocument;
      for (const statement of doc.Statement) out.push({ owner, statement });
    }
  }
  for (const [owner, res] of Object.entries(template.findResources('AWS::IAM::Role'))) {
    const policies = (res as { Properties: { Policies?: { PolicyDocument: { Statement: Record<string, unknown>[] } }[] } }).Properties.Policies ?? [];
    for (const p of policies) for (const statement of p.PolicyDocument.Statement) out.push({ owner, statement });
  }
  return out;
}

export const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
