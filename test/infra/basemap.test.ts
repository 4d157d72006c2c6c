/**
 * The self-hosted street map in the synthesized stack: a private, retained, logged bucket behind
 * CloudFront's `/basemap/*` (origin access control, cached, not compressed: the archive is read in
 * ranges), BASEMAP_URL for the functions, and its name as an output for the operator's upload; with
 * `selfHostedBasemap` false, none of it.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { WebHosting } from '../../infra/constructs/web-hosting';
import { BASEMAP_URL } from '../../shared/basemap';
import { FULL_STACK, NO_WEB_DIST, REGION, scratchOutdir, sharedTemplate } from './helpers';

// CloudFormation JSON, checked by shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let json: { Resources: Record<string, Json>; Outputs: Record<string, Json> };
let bucketId: string;

beforeAll(() => {
  json = sharedTemplate(FULL_STACK).toJSON() as typeof json;
  const buckets = Object.keys(json.Resources).filter((id) => json.Resources[id].Type === 'AWS::S3::Bucket' && /Basemap/.test(id));
  expect(buckets).toHaveLength(1);
  bucketId = buckets[0]!;
});

describe('the self-hosted base map', () => {
  it('is a private, encrypted, retained bucket that logs access and refuses anything but TLS', () => {
    const bucket = json.Resources[bucketId];
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.Properties.BucketEncryption).toBeDefined();
    expect(bucket.Properties.LoggingConfiguration.LogFilePrefix).toBe('s3-basemap/');
    const policies = Object.values(json.Resources).filter((r: Json) => r.Type === 'AWS::S3::BucketPolicy' && r.Properties.Bucket.Ref === bucketId);
    const statements = JSON.stringify(policies);
    expect(statements).toContain('"aws:SecureTransport":"false"');
    // CloudFront alone reads it (origin access control), and only reads.
    expect(statements).toContain('cloudfront.amazonaws.com');
    expect(statements).not.toMatch(/s3:(Put|Delete)/);
  });

  it('is served under /basemap/* on the web app origin, cached, not compressed, with the security headers', () => {
    const distribution = Object.values(json.Resources).find((r: Json) => r.Type === 'AWS::CloudFront::Distribution') as Json;
    const behaviours = distribution.Properties.DistributionConfig.CacheBehaviors as Json[];
    const basemap = behaviours.find((b) => b.PathPattern === '/basemap/*');
    expect(basemap).toMatchObject({ AllowedMethods: ['GET', 'HEAD'], Compress: false, ViewerProtocolPolicy: 'redirect-to-https' });
    // The managed CachingOptimized policy.
    expect(basemap.CachePolicyId).toBe('658327ea-f89d-4fab-a63d-7e88639e58f6');
    expect(basemap.ResponseHeadersPolicyId).toBeDefined();
    const origin = (distribution.Properties.DistributionConfig.Origins as Json[]).find((o) => o.Id === basemap.TargetOriginId);
    expect(JSON.stringify(origin.DomainName)).toContain(bucketId);
    expect(origin.OriginAccessControlId).toBeDefined();
    // No page route reaches the brand router's index.html under it.
    expect(basemap.FunctionAssociations).toBeUndefined();
  });

  it('is named to the functions (BASEMAP_URL) and to the operator (BasemapBucket output)', () => {
    const functions = Object.values(json.Resources).filter((r: Json) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.MAP_STYLE_URL);
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) expect(fn.Properties.Environment.Variables.BASEMAP_URL).toBe(BASEMAP_URL);
    expect(JSON.stringify(json.Outputs['BasemapBucket'].Value)).toContain(bucketId);
  });

  it('is left out with selfHostedBasemap false', () => {
    const stack = new Stack(new App({ outdir: scratchOutdir() }), 'Web', { env: { region: REGION, account: '123456789012' } });
    new WebHosting(stack, 'Web', { brandDomains: {}, apiDomainName: 'abc.execute-api.eu-north-1.amazonaws.com', webDist: NO_WEB_DIST, mapStyleUrl: 'https://maps.geo.eu-north-1.amazonaws.com/v2/styles/Standard/descriptor', liveOrigin: 'wss://iot.example', selfHostedBasemap: false });
    const template = Template.fromStack(stack).toJSON() as { Resources: Record<string, Json> };
    expect(Object.keys(template.Resources).filter((id) => /Basemap/.test(id))).toEqual([]);
    const distribution = Object.values(template.Resources).find((r: Json) => r.Type === 'AWS::CloudFront::Distribution') as Json;
    expect((distribution.Properties.DistributionConfig.CacheBehaviors as Json[]).map((b) => b.PathPattern)).toEqual(['/api/*']);
  });
});
