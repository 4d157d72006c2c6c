/**
 * The unit pictures bucket in the synthesized stack: private, encrypted, TLS only, CORS for the
 * web app's origins only, abandoned uploads expiring from pending/, access logs; the units function
 * alone gets the bucket's name and exactly the S3 actions of its declared FileStore operations, on
 * the prefixes they need; and the web app's CSP lets the browser upload to and show images from
 * the bucket's origin.
 */
import { Stack } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrackingPortalStack } from '../../infra/stack';
import { FULL_STACK, asArray, policyStatements, synth } from './helpers';

// CloudFormation JSON, checked by shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let template: Template;
let stack: TrackingPortalStack;
let json: { Resources: Record<string, Json> };
let bucketId: string;

beforeAll(() => {
  // The full stack: brand domains and an app URL of https://portal.example.se.
  expect(FULL_STACK.context).toMatchObject({ appUrl: 'https://portal.example.se', brandDomains: expect.stringContaining('"portal.example.se":0') });
  ({ template, stack } = synth(FULL_STACK));
  json = template.toJSON() as typeof json;
  const buckets = Object.entries(json.Resources).filter(([id, r]) => r.Type === 'AWS::S3::Bucket' && id.startsWith('UnitImages'));
  expect(buckets).toHaveLength(1);
  bucketId = buckets[0]![0];
});

/** A JSON value with every `Ref` and `Fn::GetAtt` of the bucket replaced by a marker, for readable comparisons. */
const flat = (value: Json): string => JSON.stringify(value);

describe('the pictures bucket', () => {
  it('is private, encrypted, retained, owner-enforced and logs access', () => {
    const bucket = json.Resources[bucketId];
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }]);
    expect(bucket.Properties.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    expect(bucket.Properties.LoggingConfiguration.LogFilePrefix).toBe('s3-pictures/');
    expect(flat(bucket.Properties.BucketName)).toContain('trackingportal-pics-');
  });

  it('refuses anything but TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('lets only the web app origins PUT and GET across origins, with the content-type header', () => {
    const [rule, ...rest] = json.Resources[bucketId].Properties.CorsConfiguration.CorsRules;
    expect(rest).toEqual([]);
    expect(rule.AllowedMethods).toEqual(['PUT', 'GET']);
    expect(rule.AllowedHeaders).toEqual(['content-type']);
    const origins = rule.AllowedOrigins.map(flat);
    expect(origins).toContain(JSON.stringify('https://portal.example.se'));
    expect(origins.some((o: string) => o.includes('DomainName'))).toBe(true);
    expect(origins).not.toContain(JSON.stringify('*'));
  });

  it('expires uploads that were never confirmed from pending/ after a day, and report exports after 30 days', () => {
    const rules = json.Resources[bucketId].Properties.LifecycleConfiguration.Rules;
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Id: 'abandoned-uploads', Prefix: 'pending/', ExpirationInDays: 1, Status: 'Enabled' }),
        expect.objectContaining({ Id: 'report-exports', Prefix: 'reports/', ExpirationInDays: 30, Status: 'Enabled' }),
        expect.objectContaining({ Id: 'incomplete-multipart', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
      ]),
    );
  });
});

describe('grants on the pictures bucket', () => {
  const s3StatementsOf = (roleOwnerPrefix: string | null) =>
    policyStatements(template).filter(
      ({ owner, statement }) => (roleOwnerPrefix === null || owner.startsWith(roleOwnerPrefix)) && asArray(statement['Action'] as string | string[]).some((a) => a.startsWith('s3:')) && flat(statement['Resource']).includes(bucketId),
    );

  /** The bucket statements of a function's policy, as action to prefixes (or 'bucket'). */
  const bucketGrantsOf = (name: string) => {
    const fn = stack.functions.get(name);
    expect(fn, name).toBeDefined();
    const roleId = Stack.of(stack).getLogicalId(fn!.role.node.defaultChild as never);
    // Every policy of the role: CDK moves what does not fit the inline policy into managed ones.
    const policies = Object.values(json.Resources).filter((r) => ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].includes(r.Type) && asArray(r.Properties.Roles).some((x: Json) => x?.Ref === roleId));
    expect(policies.length).toBeGreaterThan(0);
    const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as Json[]).filter((s) => flat(s.Resource).includes(bucketId));
    expect(statements.every((s) => s.Effect === 'Allow' && !asArray(s.Action).includes('s3:*'))).toBe(true);
    // Its environment names the bucket.
    const resource = json.Resources[Stack.of(stack).getLogicalId(fn!.function.node.defaultChild as never)];
    expect(resource.Properties.Environment.Variables.FILES_BUCKET).toEqual({ Ref: bucketId });
    return Object.fromEntries(
      statements.map((s) => [s.Action, asArray(s.Resource).map((r: Json) => (flat(r).match(/\/(pending|units|reports)\/\*/)?.[0] ?? 'bucket')).sort()]),
    );
  };

  it('gives the units function exactly its FileStore operations, per prefix', () => {
    expect(bucketGrantsOf('units')).toEqual({
      's3:DeleteObject': ['/pending/*', '/units/*'],
      's3:GetObject': ['/pending/*', '/units/*'],
      's3:ListBucket': ['bucket'],
      's3:PutObject': ['/pending/*', '/units/*'],
    });
  });

  it('gives the report functions reports/ only: the consumer writes, the reports function signs downloads and deletes', () => {
    expect(bucketGrantsOf('report-export')).toEqual({ 's3:AbortMultipartUpload': ['/reports/*'], 's3:PutObject': ['/reports/*'] });
    expect(bucketGrantsOf('reports')).toEqual({ 's3:DeleteObject': ['/reports/*'], 's3:GetObject': ['/reports/*'] });
  });

  it('gives no other function anything on it', () => {
    const others = [...stack.functions].filter(([name]) => !['units', 'reports', 'report-export'].includes(name));
    for (const [name, fn] of others) {
      const env = json.Resources[Stack.of(stack).getLogicalId(fn.function.node.defaultChild as never)].Properties.Environment?.Variables ?? {};
      expect(env.FILES_BUCKET, name).toBeUndefined();
      const roleId = Stack.of(stack).getLogicalId(fn.role.node.defaultChild as never);
      const granted = Object.values(json.Resources).filter(
        (r) => ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].includes(r.Type) && asArray(r.Properties.Roles).some((x: Json) => x?.Ref === roleId) && flat(r.Properties.PolicyDocument).includes(bucketId),
      );
      expect(granted, name).toEqual([]);
    }
    expect(s3StatementsOf(null).length).toBeGreaterThan(0);
  });
});

// cdk-nag finds nothing unacknowledged anywhere in this stack, the pictures bucket and the units
// function included: test/infra/nag.test.ts.

describe("the web app's Content-Security-Policy", () => {
  it("allows the bucket's regional origin for uploads (connect-src) and images (img-src)", () => {
    const policies = Object.values(json.Resources).filter((r) => r.Type === 'AWS::CloudFront::ResponseHeadersPolicy');
    expect(policies).toHaveLength(1);
    const csp = flat(policies[0].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toMatch(/img-src 'self' data: blob: [^;]*https:\/\/trackingportal-pics-/);
    expect(csp).toMatch(/connect-src 'self' blob: [^;]*https:\/\/trackingportal-pics-/);
    expect(csp).toContain('.s3.');
  });
});
