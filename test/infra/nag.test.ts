/**
 * cdk-nag's AwsSolutions pack over the real stack. cdk-nag 3 is a CDK policy-validation plugin:
 * violations that are not acknowledged (with a reason, next to the resource) fail the synth.
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { FULL_STACK, scratchOutdir, synth } from './helpers';

function violations(app: App) {
  // Aspects (which record the granular acknowledgements) run during synthesis.
  app.synth();
  const report = new AwsSolutionsChecks(app, { verbose: true }).validateScope(app);
  return report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
}

describe('cdk-nag AwsSolutions', () => {
  let defaultApp: App;
  let fullStackViolations: string[];
  // Synthesis in a hook, which has the longer time-out. The default stack with cdk-nag registered
  // as infra/app.ts does: the synth fails on an unacknowledged violation.
  beforeAll(() => {
    defaultApp = synth({ nag: true }).app;
    fullStackViolations = violations(synth(FULL_STACK).app);
  });

  it('reports no unacknowledged error or warning for the default stack', () => {
    expect(violations(defaultApp)).toEqual([]);
  });

  it('reports none for the full stack: ingest rules, jobs, web deployment, brand domains with a certificate', () => {
    expect(fullStackViolations).toEqual([]);
  });

  it('passes as the synth-time validation plugin the app registers', () => {
    // The hook's synth (kept by `synth`), which would have thrown.
    expect(() => synth({ nag: true })).not.toThrow();
    expect(synth({ nag: true }).app).toBe(defaultApp);
  });

  it('still catches what nobody acknowledged, and then fails the synth', () => {
    const probe = (withPlugin: boolean) => {
      const app = new App({ outdir: scratchOutdir() });
      if (withPlugin) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
      const stack = new Stack(app, 'Probe');
      new iam.Role(stack, 'TooBroad', {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        inlinePolicies: { all: new iam.PolicyDocument({ statements: [new iam.PolicyStatement({ actions: ['s3:*'], resources: ['*'] })] }) },
      });
      return app;
    };
    expect(violations(probe(false)).join('\n')).toMatch(/AwsSolutions-IAM5\[Action::s3:\*\]/);
    expect(() => probe(true).synth()).toThrow(/AwsSolutions-IAM5\[Resource::\*\]/);
  });
});
