/**
 * The real stack for the infrastructure tests (test/support/portal-stack.ts builds it: the context
 * of cdk.json, a fixed region, the run's shared bundle root).
 *
 * A synth is the expensive part of these tests (constructing the stack reads every bundle; the
 * first synthesis in a process also starts CDK's CloudFormation validation engine), and vitest
 * runs each file in a process of its own. So:
 * - the default stack and the full stack (`FULL_STACK`: every optional part switched on at
 *   once) are synthesized once per run, in a process of its own that the first file to import
 *   this module starts and every one waits for (test/support/shared-stacks.ts); `synth()` and `synth(FULL_STACK)` construct
 *   the stack in the test's process, for its constructs, and read that run's template instead of
 *   synthesizing it again (the same code and inputs: test/infra/stack.test.ts checks that the
 *   template synthesized here is the shared one); `sharedTemplate` is the template alone;
 * - a test that needs what only a synthesis gives (annotations, cdk-nag) calls `app.synth()`;
 * - any other options are synthesized in the test's process, once per file (`synth` keeps what it
 *   made for the same options), so a file asks for a variant as often as it likes;
 * - a test of a variant adds its options to the full stack where they do not change what the
 *   other tests of the full stack check, rather than synthesizing a stack of its own.
 * A stack's `template` is its flattened template (`flatTemplate`): the nested stacks' resources
 * merged in, with the references between them as if they were one template.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import { buildStack, flatTemplate, fullStackOptions, type SynthOptions } from '../support/portal-stack';
import { whenSharedStacksReady } from '../support/shared-stacks';

export { FIXTURES, FULL_STACK_IOT_ENDPOINT, INGEST_FIXTURE, JOB_FIXTURE, REGION, STACK_NAME, cdkJsonContext, flatTemplate, nestedStacksOf, type SynthOptions } from '../support/portal-stack';

// Everything a test process writes (cloud assemblies) lives under one folder of the run's scratch
// root: it goes when the process ends, and with the run's folder if the process is not let end.
const scratch = fs.mkdtempSync(path.join(inject('scratchRoot'), 'infra-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
// The run's shared bundle root and shared stacks (test/support/global-setup.ts).
const bundleRoot = inject('bundleRoot');
const shared = inject('sharedStacks');
// The run's synthesis, started by the first file that asks, runs beside other files: a test of
// the stack starts when it is done (the bundles that constructing a stack reads are then there too).
await whenSharedStacksReady(shared, bundleRoot);

/** A cloud assembly folder for a test's App, removed with the rest of the scratch folder. */
export function scratchOutdir(): string {
  return fs.mkdtempSync(path.join(scratch, 'cdk.out-'));
}

/** A web build directory that never exists, so tests do not depend on `npm run build:web`. */
export const NO_WEB_DIST = path.join(scratch, 'no-web-dist');

/** The full stack: stand-in ingest handlers, three jobs, a web build, brand domains with a certificate, an app URL, an IoT endpoint, settings of its own. */
export const FULL_STACK: SynthOptions = fullStackOptions(shared.webDist);

const sharedTemplates = new Map<string, { file: string; template?: Template }>([
  [key({}), { file: shared.defaultTemplate }],
  [key(FULL_STACK), { file: shared.fullTemplate }],
]);

function key(options: SynthOptions): string {
  return JSON.stringify(options, (_k, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  );
}

/** The template of the default stack (no options) or of `FULL_STACK`, as the run's synthesis made it. */
export function sharedTemplate(options: SynthOptions = {}): Template {
  const entry = sharedTemplates.get(key(options));
  if (!entry) throw new Error('only the default stack and FULL_STACK are synthesized once per run');
  entry.template ??= Template.fromJSON(JSON.parse(fs.readFileSync(entry.file, 'utf8')) as Record<string, unknown>);
  return entry.template;
}

const made = new Map<string, ReturnType<typeof buildStack> & { template: Template }>();

/**
 * The stack with these options: constructed here, with the run's template for the default and
 * the full stack and a synthesis of its own otherwise; once per file for the same options.
 */
export function synth(options: SynthOptions = {}) {
  const k = key(options);
  const known = made.get(k);
  if (known) return known;
  const { app, stack } = buildStack(options, { bundleRoot, outdir: scratchOutdir(), noWebDist: NO_WEB_DIST });
  const template = sharedTemplates.has(k) ? sharedTemplate(options) : Template.fromJSON(flatTemplate(stack));
  const result = { app, stack, template };
  made.set(k, result);
  return result;
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
