/**
 * The CDK app (`npx cdk synth`, `npx cdk deploy`): one stack per stage, checked by cdk-nag's
 * AwsSolutions pack. Synth is offline: the stack is account-agnostic and its region comes from
 * context `region`, CDK_DEFAULT_REGION (the CLI's profile) or eu-north-1.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DEFAULT_REGION, readConfig, stackNameFor } from './config';
import { TrackingPortalStack } from './stack';

const app = new App();
const config = readConfig(app.node);
const iotDataEndpoint = app.node.tryGetContext('iotDataEndpoint') as string | undefined;
// The CLI sets CDK_DEFAULT_REGION from the AWS profile (us-east-1 when none is configured);
// `-c region=...` wins over both.
const region = (app.node.tryGetContext('region') as string | undefined) ?? process.env['CDK_DEFAULT_REGION'] ?? DEFAULT_REGION;

const stack = new TrackingPortalStack(app, stackNameFor(config.stage), {
  description: `GPS fleet tracking portal (${config.stage})`,
  env: { region },
  config,
  ...(iotDataEndpoint ? { iotDataEndpoint } : {}),
});
Tags.of(stack).add('project', 'tracking-portal');
Tags.of(stack).add('stage', config.stage);

// cdk-nag 3 is a policy-validation plugin: a violation that is not acknowledged (with its reason,
// next to the resource, see infra/constructs/nag.ts) fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
