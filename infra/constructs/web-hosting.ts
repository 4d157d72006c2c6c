/**
 * The web app: a private S3 bucket behind CloudFront (origin access control), `/api/*` forwarded
 * to the HTTP API uncached, with the origin secret and the viewer's address (api-origin.ts), and
 * a viewer-request CloudFront Function that serves each brand's index.html for page routes
 * (infra/brand-router.ts). The build in web/dist is uploaded when it
 * exists at synth time. The pages carry the Content-Security-Policy of infra/content-security-policy.ts
 * with the other security headers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Annotations, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { BASEMAP_PATH } from '../../shared/basemap';
import { brandRouterCode } from '../brand-router-code';
import type { BrandDomains } from '../brand-router';
import { contentSecurityPolicy } from '../content-security-policy';
import { ApiOrigin } from './api-origin';
import { acknowledge } from './nag';

export interface WebHostingProps {
  readonly brandDomains: BrandDomains;
  /** The HTTP API's execute-api host name. */
  readonly apiDomainName: string;
  /** The built web app; deployed only when it holds index.html. */
  readonly webDist: string;
  /** us-east-1 ACM certificate for the brand domains; without it no aliases are configured. */
  readonly certificateArn?: string;
  /** The base map's style URL (its origin goes into the CSP); the API key in it may be left out. */
  readonly mapStyleUrl: string;
  /** `wss://<IoT data endpoint>`, where browsers open the live channel. */
  readonly liveOrigin: string;
  /** Where the browser uploads files to and shows them from (the pictures bucket). */
  readonly fileOrigins?: readonly string[];
  /**
   * Serve the self-hosted base map: a private bucket behind `/basemap/*` on this distribution, into
   * which the operator uploads a Protomaps archive with its fonts and sprites (docs/operations.md).
   */
  readonly selfHostedBasemap?: boolean;
}

export class WebHosting extends Construct {
  readonly bucket: s3.Bucket;
  readonly logBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly brandRouter: cloudfront.Function;
  /** How `/api/*` reaches the HTTP API: the origin secret and the viewer's address. */
  readonly api: ApiOrigin;
  readonly securityHeaders: cloudfront.ResponseHeadersPolicy;
  readonly deployment?: s3deploy.BucketDeployment;
  /** The self-hosted base map's folder, served under BASEMAP_PATH; absent unless asked for. */
  readonly basemapBucket?: s3.Bucket;

  constructor(scope: Construct, id: string, props: WebHostingProps) {
    super(scope, id);

    this.logBucket = new s3.Bucket(this, 'Logs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logging writes with an ACL grant to its log-delivery account.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
    });
    acknowledge(this.logBucket, [
      ['AwsSolutions-S1', 'This is the access-log bucket itself; logging it into itself would log every log delivery.'],
    ]);

    this.bucket = new s3.Bucket(this, 'Site', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3-web/',
    });

    this.brandRouter = new cloudfront.Function(this, 'BrandRouter', {
      comment: 'Page routes -> /brands/<brand of the host>/index.html',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(brandRouterCode(props.brandDomains)),
    });

    // The managed SECURITY_HEADERS policy, plus our CSP; frame options DENY to match frame-ancestors
    // 'none'. X-XSS-Protection is left out: browsers dropped that filter, and CSP replaces it.
    this.securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Web app: CSP, HSTS, nosniff, frame options, referrer policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy({ mapStyleUrl: props.mapStyleUrl, liveOrigin: props.liveOrigin, ...(props.fileOrigins ? { fileOrigins: props.fileOrigins } : {}) }),
          override: true,
        },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        // The maps API key is limited to our pages as referers: tile requests must keep sending the origin.
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      },
    });

    this.api = new ApiOrigin(this, 'Api', { apiDomainName: props.apiDomainName });

    // The street map's archive (up to the planet's 120 GB) and its fonts and sprites. Uploaded by
    // the operator and kept when the stack goes: a download of many gigabytes is not redone lightly.
    // Read only through CloudFront, in byte ranges, which CloudFront caches like any GET.
    if (props.selfHostedBasemap) {
      this.basemapBucket = new s3.Bucket(this, 'Basemap', {
        blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
        encryption: s3.BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        serverAccessLogsBucket: this.logBucket,
        serverAccessLogsPrefix: 's3-basemap/',
        removalPolicy: RemovalPolicy.RETAIN,
      });
    }
    // One origin access control (SigV4 to S3) for every bucket the distribution reads.
    const originAccessControl = new cloudfront.S3OriginAccessControl(this, 'OriginAccess', { signing: cloudfront.Signing.SIGV4_ALWAYS });
    const basemapBehaviors: Record<string, cloudfront.BehaviorOptions> = this.basemapBucket
      ? {
          [`${BASEMAP_PATH}*`]: {
            origin: origins.S3BucketOrigin.withOriginAccessControl(this.basemapBucket, { originAccessControl }),
            viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
            cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
            responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
            // The tiles in the archive are compressed already, and CloudFront does not compress ranges.
            compress: false,
          },
        }
      : {};

    const domainNames = Object.keys(props.brandDomains);
    const certificate = props.certificateArn
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
      : undefined;

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Tracking portal',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // North America and Europe: the customers are Nordic.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      // A minimum TLS version needs our own certificate; the default *.cloudfront.net one is fixed.
      ...(certificate ? { certificate, domainNames, minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 } : {}),
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, { originAccessControl }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.securityHeaders,
        compress: true,
        functionAssociations: [{ function: this.brandRouter, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          // With the origin secret in a custom header (api-origin.ts).
          origin: this.api.origin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Every viewer header (Authorization, TimeZone, X-Request-Type...) but Host, which must be
          // the execute-api host name for API Gateway to find the API. The viewer's address is one
          // of them: the viewer-request function writes it.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          functionAssociations: [{ function: this.api.viewerAddress, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
          responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
        },
        ...basemapBehaviors,
      },
    });

    acknowledge(this.distribution, [
      ['AwsSolutions-CFR1', 'No geo restriction: customers and their vehicles travel across Europe, and the API answers 401 to anyone without a token anyway.'],
      ['AwsSolutions-CFR2', 'No WAF for now (fixed monthly cost per web ACL); login, 2FA and e-mail lookups are rate-limited in the handlers and API Gateway throttles the stage. Add a web ACL when traffic warrants it.'],
      ...(certificate
        ? []
        : ([
            [
              'AwsSolutions-CFR4',
              'Without a certificate (context certificateArn) the distribution uses the default *.cloudfront.net certificate, for which CloudFront cannot enforce TLSv1.2; set certificateArn for the brand domains to get TLSv1.2_2021.',
            ],
          ] as const)),
    ]);

    const indexHtml = path.join(props.webDist, 'index.html');
    if (fs.existsSync(indexHtml)) {
      this.deployment = new s3deploy.BucketDeployment(this, 'Deploy', {
        sources: [s3deploy.Source.asset(props.webDist)],
        destinationBucket: this.bucket,
        distribution: this.distribution,
        distributionPaths: ['/*'],
        memoryLimit: 1024,
      });
    } else {
      Annotations.of(this).addWarningV2(
        'tracking-portal:web-dist-missing',
        `${indexHtml} does not exist: the web app is not deployed. Run \`npm run build:web\` before \`cdk deploy\`.`,
      );
    }
  }
}
