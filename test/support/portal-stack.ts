/**
 * The real stack as the infrastructure tests build it: the context of cdk.json, a fixed region,
 * the run's shared bundle root and no web build unless a test gives one. Used by the test files
 * through test/infra/helpers.ts, and by synth-shared-stacks.ts, which builds the Lambda bundles
 * and synthesizes the two shared stacks once per run, in a process of its own that the first
 * infrastructure test starts (shared-stacks.ts):
 * - the default stack (`synth()`), exactly as `cdk synth` makes it from the manifests;
 * - the full stack (`FULL_STACK`): every optional part switched on at once (stand-in ingest
 *   handlers, scheduled jobs of every kind, a web build, brand domains with a certificate and an
 *   app URL, an IoT endpoint given, memory and timeout settings of its own, alarm e-mail
 *   addresses and an SMS spend threshold).
 * A test file then reads their templates instead of synthesizing them again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { App, NestedStack, Validations, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { functionSettings, LIVE_AUTHORIZER } from '../../shared/capability-resources';
import { iotRules } from '../../shared/iot-rules';
import { handlerPath } from '../../shared/routes';
import { REPO_ROOT } from '../../infra/bundling/bundle';
import { readConfig } from '../../infra/config';
import { TrackingPortalStack, type TrackingPortalStackProps } from '../../infra/stack';
import { sharedStacksIn, type SharedStacks } from './shared-stacks';

export const STACK_NAME = 'TrackingPortal';
export const REGION = 'eu-north-1';
export const FIXTURES = path.join(REPO_ROOT, 'test', 'infra', 'fixtures');
export const INGEST_FIXTURE = path.join(FIXTURES, 'ingest-handler.ts');
export const JOB_FIXTURE = path.join(FIXTURES, 'job-handler.ts');
/** The IoT data endpoint the full stack is given instead of looking it up at deploy time. */
export const FULL_STACK_IOT_ENDPOINT = 'a1b2c3d4e5f6g7-ats.iot.eu-north-1.amazonaws.com';

export interface SynthOptions extends Partial<Omit<TrackingPortalStackProps, 'config'>> {
  readonly context?: Record<string, unknown>;
  /** Keep the "web app is not deployed" warning (acknowledged by default: tests use no web build). */
  readonly keepWebWarning?: boolean;
  /** Register cdk-nag as infra/app.ts does, so the synth fails on an unacknowledged violation. */
  readonly nag?: boolean;
}

/** Where a test process builds: the shared bundles, a cloud assembly folder of its own, a web build folder that never exists. */
export interface BuildPlace {
  readonly bundleRoot: string;
  readonly outdir: string;
  readonly noWebDist: string;
  /** CDK's built-in CloudFormation validation of the synthesized template (default on, as `cdk synth`). */
  readonly validation?: boolean;
}

export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return cdkJson.context;
}

/** Constructs the stack; nothing is synthesized yet. */
export function buildStack(options: SynthOptions, place: BuildPlace): { app: App; stack: TrackingPortalStack } {
  const { context, keepWebWarning, nag, ...props } = options;
  const app = new App({ context: { ...cdkJsonContext(), ...context }, outdir: place.outdir, builtinCloudFormationValidation: place.validation ?? true });
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  const stack = new TrackingPortalStack(app, STACK_NAME, {
    env: { region: REGION },
    config: readConfig(app.node),
    bundleRoot: place.bundleRoot,
    sharedBundleRoot: true,
    webDist: place.noWebDist,
    ...props,
  });
  if (!keepWebWarning) {
    Validations.of(stack).acknowledge({ id: 'Annotation::tracking-portal:web-dist-missing', reason: 'tests run without a web build' });
  }
  return { app, stack };
}

// Synthesized CloudFormation is untyped JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The nested stacks directly under `stack`. */
export function nestedStacksOf(stack: Stack): NestedStack[] {
  return stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c) && c.nestedStackParent === stack);
}

/** `value` with every object `replace` answers for replaced by its answer, at any depth. */
function substitute(value: Json, replace: (v: Json) => Json): Json {
  if (Array.isArray(value)) return value.map((v) => substitute(v, replace));
  if (value && typeof value === 'object') {
    const replaced = replace(value);
    if (replaced !== undefined) return replaced;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, replace)]));
  }
  return value;
}

/**
 * The stack's template with its nested stacks' resources merged in, as if they were one template:
 * a nested stack's parameter is replaced by the value its parent passes (`{ Ref: table }`, not
 * `{ Ref: referenceto...Ref }`) and the parent's `Fn::GetAtt` of a nested output by the output's
 * value. So a test reads a function, its role and its routes by their logical ids
 * (`Stack.getLogicalId` gives the id in the construct's own stack) wherever they live. The nested
 * stack resources themselves stay, without their `Parameters`; what each template holds alone is `Template.fromStack` of that
 * stack (test/infra/stack-size.test.ts counts them).
 */
export function flatTemplate(stack: Stack): Json {
  // A copy: the template Template.fromStack answers is the stack's own (CDK keeps it), and merging
  // the nested stacks into it in place showed their routes to every later reader of this stack.
  let json: Json = structuredClone(Template.fromStack(stack).toJSON());
  for (const nested of nestedStacksOf(stack)) {
    const inner = flatTemplate(nested);
    const resourceId = stack.getLogicalId(nested.nestedStackResource as CfnElement);
    const params: Record<string, Json> = json.Resources[resourceId]?.Properties?.Parameters ?? {};
    // Passed on into the merged resources, the parameters themselves are gone from the flat view.
    if (json.Resources[resourceId]?.Properties) delete json.Resources[resourceId].Properties.Parameters;
    const fromParent = (v: Json) => (typeof v.Ref === 'string' && Object.keys(v).length === 1 && v.Ref in params ? params[v.Ref] : undefined);
    for (const [id, resource] of Object.entries(substitute(inner.Resources, fromParent) as Record<string, Json>)) {
      if (id in json.Resources) throw new Error(`logical id ${id} is in ${stack.node.path} and its nested stack ${nested.node.path}`);
      json.Resources[id] = resource;
    }
    const outputs: Record<string, Json> = substitute(inner.Outputs ?? {}, fromParent);
    json = substitute(json, (v) => {
      const att = v['Fn::GetAtt'];
      if (!Array.isArray(att) || att[0] !== resourceId || typeof att[1] !== 'string' || !att[1].startsWith('Outputs.')) return undefined;
      return outputs[att[1].slice('Outputs.'.length)]?.Value;
    });
  }
  return json;
}

/** Writes a minimal web build into `dir`. */
export function writeWebDist(dir: string): void {
  fs.mkdirSync(path.join(dir, 'brands', '0'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>portal</title>');
  fs.writeFileSync(path.join(dir, 'brands', '0', 'index.html'), '<!doctype html><title>brand 0</title>');
}

/** The full stack's options; `webDist` is the run's shared web build fixture. */
export function fullStackOptions(webDist: string): SynthOptions {
  const job = path.relative(REPO_ROOT, JOB_FIXTURE);
  return {
    ingestHandlers: Object.fromEntries(iotRules.map((r) => [handlerPath(r.handler), INGEST_FIXTURE])),
    jobs: [
      { name: 'command-timeouts', schedule: 'rate(1 minute)', file: job, description: 'every minute' },
      { name: 'nightly', schedule: 'cron(0 3 * * ? *)', timeZone: 'Europe/Stockholm', file: job, description: '03:00 in Stockholm' },
      { name: 'weekly-utc', schedule: 'cron(30 6 ? * MON *)', file: job, description: 'Mondays 06:30 UTC' },
    ],
    webDist,
    iotDataEndpoint: FULL_STACK_IOT_ENDPOINT,
    functionSettings: {
      ...functionSettings,
      tracking: { memorySize: 1024, timeoutSeconds: 20 },
      jobs: { timeoutSeconds: 120 },
      [LIVE_AUTHORIZER]: { memorySize: 256, timeoutSeconds: 3 },
    },
    context: {
      // As a JSON string, the way `cdk deploy -c brandDomains=...` passes it.
      brandDomains: JSON.stringify({ 'portal.example.se': 0, 'track.example.no': 3 }),
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc-123',
      appUrl: 'https://portal.example.se',
      // As `-c alarmEmails=...` gives them (test/infra/monitoring.test.ts).
      alarmEmails: 'ops@example.se,oncall@example.no',
      smsSpendAlarmUsd: '250',
      // The SMS sender of accounts that name none (test/infra/stack.test.ts).
      smsSenderId: 'FleetAlarm',
      // Off by default (test/infra/monitoring.test.ts).
      apiRouteMetrics: 'true',
    },
  };
}

/**
 * Once per run (synth-shared-stacks.ts): builds every bundle the two shared stacks need into
 * `bundleRoot` and writes their synthesized templates into `dir`. Without CDK's CloudFormation
 * validation, whose engine takes seconds to start and leaves the template as it is:
 * test/infra/stack.test.ts synthesizes both stacks again with it and compares the templates.
 */
export function synthesizeSharedStacks(bundleRoot: string, dir: string): SharedStacks {
  const shared = sharedStacksIn(dir);
  writeWebDist(shared.webDist);
  const place = (name: string): BuildPlace => ({ bundleRoot, outdir: path.join(dir, `cdk.out-${name}`), noWebDist: path.join(dir, 'no-web-dist'), validation: false });
  for (const [options, file, name] of [
    [{}, shared.defaultTemplate, 'default'],
    [fullStackOptions(shared.webDist), shared.fullTemplate, 'full'],
  ] as const) {
    const { stack } = buildStack(options, place(name));
    fs.writeFileSync(file, JSON.stringify(flatTemplate(stack)));
    fs.rmSync(place(name).outdir, { recursive: true, force: true });
  }
  return shared;
}
