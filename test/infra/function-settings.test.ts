/**
 * Memory and timeout per function (`functionSettings`, shared/capability-resources.ts): every entry
 * is within Lambda's limits and its caller's, a value outside them fails the synth naming the
 * entry, and a setting reaches its function in the template while the others keep the defaults.
 */
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FUNCTION_SETTING_DEFAULTS,
  INGEST_FAILURES,
  LIVE_AUTHORIZER,
  TIMEOUT_LIMITS,
  functionSettings,
  invokerOf,
  resolveFunctionSettings,
  type FunctionName,
} from '../../shared/capability-resources';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';
import type { PortalFunction } from '../../infra/constructs/portal-function';
import { FULL_STACK, synth } from './helpers';

// CloudFormation JSON, checked by shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('resolveFunctionSettings', () => {
  it('accepts every entry of the manifest, each naming a deployed function', () => {
    const deployed = new Set<string>([...routeList.filter((r) => !r.embeddedOnly).map((r) => r.capability), 'ingest', INGEST_FAILURES, ...queueList.map((q) => q.name), 'jobs', LIVE_AUTHORIZER]);
    for (const name of Object.keys(functionSettings) as FunctionName[]) {
      expect(deployed, name).toContain(name);
      expect(() => resolveFunctionSettings(name)).not.toThrow();
    }
  });

  it('fills in the defaults: 512 MB and 10 s', () => {
    expect(FUNCTION_SETTING_DEFAULTS).toEqual({ memorySize: 512, timeoutSeconds: 10 });
    expect(resolveFunctionSettings('tracking', {})).toEqual({ memorySize: 512, timeoutSeconds: 10 });
    expect(resolveFunctionSettings('ingest', { memorySize: 1024 })).toEqual({ memorySize: 1024, timeoutSeconds: 10 });
  });

  it("knows each function's caller: the HTTP API, IoT Core's authorizer call, or an asynchronous invoke", () => {
    expect(invokerOf('tracking')).toBe('http');
    expect(invokerOf(LIVE_AUTHORIZER)).toBe('authorizer');
    expect(invokerOf('ingest')).toBe('async');
    expect(invokerOf('jobs')).toBe('async');
    expect(TIMEOUT_LIMITS).toEqual({ http: 29, authorizer: 5, async: 900 });
  });

  it("holds memory to Lambda's 128-10240 MB, whole megabytes", () => {
    expect(resolveFunctionSettings('jobs', { memorySize: 128 }).memorySize).toBe(128);
    expect(resolveFunctionSettings('jobs', { memorySize: 10_240 }).memorySize).toBe(10_240);
    for (const memorySize of [127, 10_241, 512.5, Number.NaN]) {
      expect(() => resolveFunctionSettings('jobs', { memorySize })).toThrow(/functionSettings\.jobs \(shared\/capability-resources\.ts\): memorySize .* from 128 to 10240 MB/);
    }
  });

  it("holds the timeout to whole seconds within its caller's wait", () => {
    expect(resolveFunctionSettings('tracking', { timeoutSeconds: 29 }).timeoutSeconds).toBe(29);
    expect(resolveFunctionSettings('jobs', { timeoutSeconds: 900 }).timeoutSeconds).toBe(900);
    expect(resolveFunctionSettings(LIVE_AUTHORIZER, { timeoutSeconds: 5 }).timeoutSeconds).toBe(5);
    expect(() => resolveFunctionSettings('tracking', { timeoutSeconds: 30 })).toThrow(/functionSettings\.tracking .*from 1 to 29 .*HTTP API/);
    expect(() => resolveFunctionSettings(LIVE_AUTHORIZER, { timeoutSeconds: 6 })).toThrow(/from 1 to 5 .*custom authorizer/);
    expect(() => resolveFunctionSettings(LIVE_AUTHORIZER, {})).toThrow(/timeoutSeconds 10 \(the default\) must be/);
    expect(() => resolveFunctionSettings('ingest', { timeoutSeconds: 901 })).toThrow(/from 1 to 900/);
    for (const timeoutSeconds of [0, 1.5, -1]) expect(() => resolveFunctionSettings('jobs', { timeoutSeconds })).toThrow(/timeoutSeconds/);
  });
});

describe('the stack', () => {
  let fx: ReturnType<typeof synth>;
  const propertiesOf = (fn: PortalFunction): Json =>
    (fx.template.toJSON() as Json).Resources[fx.stack.getLogicalId(fn.function.node.defaultChild as CfnFunction)].Properties;

  beforeAll(() => {
    // The full stack has settings of its own.
    fx = synth(FULL_STACK);
  });

  it('is given settings of its own', () => {
    expect(FULL_STACK.functionSettings).toEqual({
      ...functionSettings,
      tracking: { memorySize: 1024, timeoutSeconds: 20 },
      jobs: { timeoutSeconds: 120 },
      [LIVE_AUTHORIZER]: { memorySize: 256, timeoutSeconds: 3 },
    });
  });

  it("gives a function the memory and timeout of its entry", () => {
    expect(propertiesOf(fx.stack.functions.get('tracking')!)).toMatchObject({ MemorySize: 1024, Timeout: 20 });
    expect(propertiesOf(fx.stack.functions.get('jobs')!)).toMatchObject({ MemorySize: 512, Timeout: 120 });
    expect(propertiesOf(fx.stack.liveAuthorizer.function)).toMatchObject({ MemorySize: 256, Timeout: 3 });
    expect(fx.stack.functions.get('tracking')!.settings).toEqual({ memorySize: 1024, timeoutSeconds: 20 });
    expect(propertiesOf(fx.stack.functions.get(INGEST_FAILURES)!)).toMatchObject({ MemorySize: 512, Timeout: functionSettings[INGEST_FAILURES]!.timeoutSeconds });
  });

  it('keeps the defaults for a function without an entry', () => {
    for (const [name, fn] of fx.stack.functions) {
      if (name === 'tracking' || name === 'jobs' || name in functionSettings) continue;
      expect(propertiesOf(fn), name).toMatchObject({ MemorySize: 512, Timeout: 10 });
    }
  });

  it('refuses to synthesize a setting outside the limits, naming the entry', () => {
    expect(() => synth({ functionSettings: { ...functionSettings, auth: { timeoutSeconds: 60 } } })).toThrow(
      /functionSettings\.auth \(shared\/capability-resources\.ts\): timeoutSeconds 60 must be an integer from 1 to 29/,
    );
    expect(() => synth({ functionSettings: { ...functionSettings, ingest: { memorySize: 64 } } })).toThrow(/functionSettings\.ingest .*memorySize 64/);
  });
});
