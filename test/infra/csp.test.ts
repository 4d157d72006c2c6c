/**
 * The web app's response headers on CloudFront: a policy of our own on the default behaviour, with
 * the security headers of the managed SECURITY_HEADERS policy and the Content-Security-Policy built
 * by infra/content-security-policy.ts from the Amazon Location host and the IoT data endpoint.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../infra/content-security-policy';
import { geoMapsStyleUrl } from '../../infra/constructs/maps-key';
import { FULL_STACK, FULL_STACK_IOT_ENDPOINT as IOT_ENDPOINT, REGION, sharedTemplate } from './helpers';

interface HeadersConfig {
  ContentSecurityPolicy: { ContentSecurityPolicy: unknown; Override: boolean };
  StrictTransportSecurity: { AccessControlMaxAgeSec: number; Override: boolean; IncludeSubdomains?: boolean };
  ContentTypeOptions: { Override: boolean };
  FrameOptions: { FrameOption: string; Override: boolean };
  ReferrerPolicy: { ReferrerPolicy: string; Override: boolean };
  XSSProtection?: unknown;
}

function headersPolicy(template: Template): { id: string; config: HeadersConfig } {
  const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy');
  const entries = Object.entries(policies);
  expect(entries).toHaveLength(1);
  const [id, resource] = entries[0]!;
  const props = (resource as { Properties: { ResponseHeadersPolicyConfig: { SecurityHeadersConfig: HeadersConfig } } }).Properties;
  return { id, config: props.ResponseHeadersPolicyConfig.SecurityHeadersConfig };
}

describe('CloudFront response headers policy of the web app', () => {
  let template: Template;
  beforeAll(() => {
    // The full stack is given its IoT data endpoint.
    expect(FULL_STACK.iotDataEndpoint).toBe(IOT_ENDPOINT);
    template = sharedTemplate(FULL_STACK);
  });

  it('sends the CSP of the shared builder: self, Amazon Location of the region, the IoT endpoint over wss and the pictures bucket', () => {
    const { config } = headersPolicy(template);
    // The pictures bucket's origin carries the account and region (pseudo parameters): an Fn::Join.
    const csp = (config.ContentSecurityPolicy.ContentSecurityPolicy as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
    const text = csp[1].map((part) => (typeof part === 'string' ? part : (part as { Ref: string }).Ref === 'AWS::AccountId' ? '123456789012' : (part as { Ref: string }).Ref === 'AWS::URLSuffix' ? 'amazonaws.com' : REGION)).join(csp[0]);
    expect(config.ContentSecurityPolicy.Override).toBe(true);
    const bucket = `https://trackingportal-pics-123456789012-${REGION}.s3.${REGION}.amazonaws.com`;
    expect(text).toBe(contentSecurityPolicy({ mapStyleUrl: geoMapsStyleUrl(REGION, 'Standard'), liveOrigin: `wss://${IOT_ENDPOINT}`, fileOrigins: [bucket] }));
    // Spelled out, so that a change of the builder shows here too.
    expect(text).toBe(
      "default-src 'self'; script-src 'self'; worker-src 'self' blob:; manifest-src 'self'; style-src 'self' 'unsafe-inline'; " +
        `img-src 'self' data: blob: https://maps.geo.eu-north-1.amazonaws.com ${bucket}; font-src 'self'; ` +
        `connect-src 'self' blob: https://maps.geo.eu-north-1.amazonaws.com wss://${IOT_ENDPOINT} ${bucket}; ` +
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
    // CloudFront's limit for the header value.
    expect(text.length).toBeLessThanOrEqual(1783);
  });

  it('keeps the managed policy\'s HSTS, nosniff and referrer policy, and denies framing', () => {
    const { config } = headersPolicy(template);
    expect(config.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31_536_000, Override: true });
    expect(config.ContentTypeOptions).toEqual({ Override: true });
    expect(config.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(config.ReferrerPolicy).toEqual({ ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true });
  });

  it('is the policy of the default (web app) behaviour', () => {
    const { id } = headersPolicy(template);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ DefaultCacheBehavior: Match.objectLike({ ResponseHeadersPolicyId: { Ref: id } }) }),
    });
  });

  it('names the IoT endpoint looked up at deploy time, and never the maps API key (whose referers name the distribution)', () => {
    const looked = sharedTemplate();
    const csp = headersPolicy(looked).config.ContentSecurityPolicy.ContentSecurityPolicy;
    const text = JSON.stringify(csp);
    expect(text).toMatch(/"Fn::GetAtt":\["IotEndpointLookup[0-9A-F]+","endpointAddress"\]/);
    expect(text).toContain("connect-src 'self' blob: https://maps.geo.eu-north-1.amazonaws.com wss://");
    expect(text).not.toMatch(/MapsKey/);
  });
});
