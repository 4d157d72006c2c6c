/**
 * Room to grow: CloudFormation refuses a template of more than 500 resources (and 200 parameters
 * or outputs). The HTTP capabilities live in nested stacks per group (infra/capability-groups.ts);
 * this test fails when any stack, top-level or nested, passes 400 resources, so that the next
 * capabilities find room before the hard limit is near. It prints the counts.
 */
import { CfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { capabilityGroups, groupOf } from '../../infra/capability-groups';
import { routeList } from '../../shared/routes';
import { FULL_STACK, nestedStacksOf, synth } from './helpers';

/** The ceiling this test holds every stack to, below CloudFormation's 500. */
const RESOURCE_CEILING = 400;
const CLOUDFORMATION_PARAMETER_LIMIT = 200;

interface StackSize {
  readonly path: string;
  readonly resources: number;
  readonly routes: number;
  readonly parameters: number;
  readonly outputs: number;
}

function sizes(stack: Stack): StackSize[] {
  const json = Template.fromStack(stack).toJSON() as { Resources: Record<string, { Type: string }>; Parameters?: object; Outputs?: object };
  const own: StackSize = {
    path: stack.node.path,
    resources: Object.keys(json.Resources).length,
    routes: Object.values(json.Resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route').length,
    parameters: Object.keys(json.Parameters ?? {}).length,
    outputs: Object.keys(json.Outputs ?? {}).length,
  };
  return [own, ...nestedStacksOf(stack).flatMap(sizes)];
}

const deployed = routeList.filter((r) => !r.embeddedOnly);

describe('stack sizes', () => {
  const measured = new Map<string, StackSize[]>();
  // Synthesis in a hook, which has the longer time-out.
  beforeAll(() => {
    for (const [name, options] of [['default', {}], ['full', FULL_STACK]] as const) {
      const list = sizes(synth(options).stack);
      measured.set(name, list);
      console.log(`${name} stack: ${list.map((s) => `${s.path} ${s.resources} resources (${s.routes} routes, ${s.parameters} parameters)`).join('; ')}`);
    }
  });

  it.each(['default', 'full'])(`%s: every stack, nested ones included, stays under ${RESOURCE_CEILING} resources and CloudFormation's parameter and output limits`, (name) => {
    const list = measured.get(name)!;
    expect(list.length).toBeGreaterThan(1);
    for (const s of list) {
      expect(s.resources, s.path).toBeLessThanOrEqual(RESOURCE_CEILING);
      expect(s.parameters, s.path).toBeLessThan(CLOUDFORMATION_PARAMETER_LIMIT);
      expect(s.outputs, s.path).toBeLessThan(CLOUDFORMATION_PARAMETER_LIMIT);
    }
    // The top-level stack keeps the stateful resources and holds no route; the groups hold them all.
    const [top, ...nested] = list;
    expect(top!.routes).toBe(0);
    expect(nested.reduce((n, s) => n + s.routes, 0)).toBe(deployed.length);
    expect(Math.max(...list.map((s) => s.resources))).toBeLessThan(300);
  });

  it('has the resources of each capability in the nested stack of its group', () => {
    const { stack } = synth();
    expect([...stack.groupStacks.keys()].sort()).toEqual([...new Set(deployed.map((r) => groupOf(r.capability)))].sort());
    for (const capability of new Set(deployed.map((r) => r.capability))) {
      const fn = stack.functions.get(capability)!;
      expect(Stack.of(fn), capability).toBe(stack.groupStacks.get(groupOf(capability)));
    }
    for (const [group, nested] of stack.groupStacks) {
      const routes = nested.node.findAll().filter((c) => CfnResource.isCfnResource(c) && c.cfnResourceType === 'AWS::ApiGatewayV2::Route');
      expect(routes.length, group).toBe(deployed.filter((r) => groupOf(r.capability) === group).length);
    }
  });
});

describe('capability groups (infra/capability-groups.ts)', () => {
  it('put every capability of a deployed route in exactly one group', () => {
    const listed = Object.values(capabilityGroups).flat();
    expect(new Set(listed).size).toBe(listed.length);
    for (const route of deployed) expect(() => groupOf(route.capability)).not.toThrow();
  });

  it('refuse a capability in no group or in two, naming it', () => {
    expect(() => groupOf('trips', { A: ['units'] })).toThrow(/capability trips is in no group of infra\/capability-groups.ts/);
    expect(() => groupOf('trips', { A: ['trips'], B: ['trips'] })).toThrow(/capability trips is in 2 groups \(A, B\)/);
  });
});
