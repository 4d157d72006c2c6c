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
import { Aspects, CfnElement, CfnResource, Names, Stack, Validations, type IAspect } from 'aws-cdk-lib';
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
        if (!match) continue;
        for (const form of findingForms(node, finding)) Validations.of(node).acknowledge({ id: `${rule}[${form}]`, reason: match.reason });
      }
    }
  }
}

/**
 * A finding as the aspect sees it and as the validation will: aspects run before CDK turns a
 * nested stack's references to its parent's resources into parameters, so `<Bucket1234.Arn>`
 * in a nested stack's policy is validated as `<referencetoStackBucket1234Arn>` (CDK names the
 * parameter `reference-to-<unique id of the target><attribute>`).
 */
function findingForms(node: CfnResource, finding: string): string[] {
  const parent = Stack.of(node).nestedStackParent;
  if (!parent) return [finding];
  const ids = [...finding.matchAll(/<([A-Za-z0-9]+)\.([A-Za-z0-9.]+)>/g)];
  if (!ids.length) return [finding];
  let nested = finding;
  for (const [whole, logicalId, attribute] of ids) {
    const target = parent.node.findAll().find((c): c is CfnElement => CfnElement.isCfnElement(c) && Stack.of(c) === parent && parent.getLogicalId(c) === logicalId);
    if (!target) continue;
    nested = nested.replace(whole, `<${`reference-to-${Names.nodeUniqueId(target.node)}${attribute}`.replace(/[^A-Za-z0-9]/g, '')}>`);
  }
  return nested === finding ? [finding] : [finding, nested];
}

/**
 * Acknowledges, at synth time, the IAM4/IAM5 findings under `scope` that match a pattern. Findings
 * no pattern matches stay violations, so a new wildcard fails the nag check until someone explains it.
 */
export function acknowledgeFindings(scope: IConstruct, patterns: readonly FindingPattern[]): void {
  Aspects.of(scope).add(new AcknowledgeFindings(patterns));
}
