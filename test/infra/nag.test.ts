/**
 * cdk-nag's AwsSolutions pack over the real stack. cdk-nag 3 is a CDK policy-validation plugin:
 * violations that are not acknowledged (with a reason, next to the resource) fail the synth.
 */
import path from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { iotRules } from '../../shared/iot-rules';
import { handlerPath } from '../../shared/routes';
import { REPO_ROOT } from '../../infra/bundling/bundle';
import { INGEST_FIXTURE, JOB_FIXTURE, scratchOutdir, synth, webDistFixture } from './helpers';

function violations(app: App) {
  // Aspects (which record the granular acknowledgements) run during synthesis.
  app.synth();
  const report = new AwsSolutionsChecks(app, { verbose: true }).validateScope(app);
  return report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
}

describe('cdk-nag AwsSolutions', () => {
  let defaultApp: App;
  // The first synth of a process bundles the functions; a hook has the longer time-out for it.
  beforeAll(() => {
    defaultApp = synth().app;
  });

  it('reports no unacknowledged error or warning for the default stack', () => {
    expect(violations(defaultApp)).toEqual([]);
  });

  it('reports none for the full stack: ingest rules, jobs, web deployment, brand domains with a certificate', () => {
    const { app } = synth({
      ingestHandlers: Object.fromEntries(iotRules.map((r) => [handlerPath(r.handler), INGEST_FIXTURE])),
      jobs: [{ name: 'command-timeouts', schedule: 'rate(1 minute)', file: path.relative(REPO_ROOT, JOB_FIXTURE), description: 'fixture' }],
      webDist: webDistFixture(),
      context: {
        brandDomains: { 'portal.example.se': 0, 'track.example.no': 3 },
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc-123',
      },
    });
    expect(violations(app)).toEqual([]);
  });

  it('passes as the synth-time validation plugin the app registers', () => {
    expect(() => synth({ nag: true })).not.toThrow();
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
