/**
 * cdk-nag acknowledgements, always with the reason in code next to the resource they excuse.
 *
 * cdk-nag 3 runs as a CDK policy-validation plugin and reads acknowledgements recorded with
 * `Validations.of(construct).acknowledge(...)` on the resource or any construct above it (so an
 * acknowledgement on a construct covers the resources it creates, also those added later).
 * Granular rules (IAM4, IAM5) report one finding per policy or wildcard resource, acknowledged
 * as `RuleId[finding]` with the exact finding text; `acknowledgeFindings` computes those with
 * cdk-nag's own rule functions at synth time and acknowledges the ones matching a pattern.
 */
import { Aspects, CfnResource, Validations, type IAspect } from 'aws-cdk-lib';
import { rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export type Acknowledgement = readonly [id: string, reason: string];

export function acknowledge(scope: IConstruct | readonly IConstruct[], list: readonly Acknowledgement[]): void {
  const scopes: readonly IConstruct[] = Array.isArray(scope) ? scope : [scope as IConstruct];
  for (const s of scopes) for (const [id, reason] of list) Validations.of(s).acknowledge({ id, reason });
}

export interface FindingPattern {
  readonly rule: 'AwsSolutions-IAM4' | 'AwsSolutions-IAM5';
  /** Matched against the finding, e.g. `Resource::*` or `Policy::arn:<AWS::Partition>:iam::aws:policy/...`. */
  readonly finding: RegExp;
  readonly reason: string;
}

const GRANULAR: Record<FindingPattern['rule'], (node: CfnResource) => unknown> = {
  'AwsSolutions-IAM4': rules.iam.IAMNoManagedPolicies,
  'AwsSolutions-IAM5': rules.iam.IAMNoWildcardPermissions,
};

class AcknowledgeFindings implements IAspect {
  constructor(private readonly patterns: readonly FindingPattern[]) {}

  visit(node: IConstruct): void {
    if (!CfnResource.isCfnResource(node)) return;
    for (const [rule, check] of Object.entries(GRANULAR)) {
      const result = check(node);
      if (!Array.isArray(result)) continue;
      for (const finding of result as string[]) {
        const match = this.patterns.find((p) => p.rule === rule && p.finding.test(finding));
        if (match) Validations.of(node).acknowledge({ id: `${rule}[${finding}]`, reason: match.reason });
      }
    }
  }
}

/**
 * Acknowledges, at synth time, the IAM4/IAM5 findings under `scope` that match a pattern. Findings
 * no pattern matches stay violations, so a new wildcard fails the nag check until someone explains it.
 */
export function acknowledgeFindings(scope: IConstruct, patterns: readonly FindingPattern[]): void {
  Aspects.of(scope).add(new AcknowledgeFindings(patterns));
}
