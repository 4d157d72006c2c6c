/**
 * The private bucket of uploaded files (unit pictures, docs/decisions/0019-unit-pictures.md) and
 * of report exports (`reports/`, written by the report-export queue's consumer, deleted after 30
 * days, docs/decisions/0037-report-jobs-and-schedules.md).
 * Browsers PUT to `pending/` with presigned URLs signed by the units function and view `units/`
 * through presigned GETs; nothing is public. Uploads that were never confirmed expire from
 * `pending/` after a day.
 *
 * The bucket's name is fixed from the stack's name, account and region rather than generated:
 * the web app's Content-Security-Policy must name the bucket's origin, and the bucket's CORS must
 * name the distribution's; a generated name would make each wait for the other.
 */
import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { REPORT_EXPORT_KEEP_DAYS, REPORT_FILES_PREFIX } from '../../shared/schemas/report-exports';

/** Keys browsers upload to, before the bytes are checked. */
export const PENDING_PREFIX = 'pending/';
/** Keys of checked pictures. */
export const PICTURES_PREFIX = 'units/';
/** Keys of report exports (functions/reports/export-request.ts), deleted after the export jobs' own 30 days. */
export const REPORTS_PREFIX = REPORT_FILES_PREFIX;
export const REPORTS_KEEP_DAYS = REPORT_EXPORT_KEEP_DAYS;

/** `<stack name>-pics-<account>-<region>`, lower case: at most 60 characters for the stack names of infra/config.ts. */
export function unitImagesBucketName(stack: Stack): string {
  const prefix = `${stack.stackName.toLowerCase()}-pics-`;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(prefix) || prefix.length > 34) throw new Error(`stack name ${stack.stackName} cannot name the pictures bucket (${prefix})`);
  return `${prefix}${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}

/** The origin presigned URLs of the bucket have (virtual-hosted, regional): what the CSP allows. */
export function unitImagesBucketOrigin(stack: Stack): string {
  return `https://${unitImagesBucketName(stack)}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;
}

export interface UnitImagesBucketProps {
  /** The web app's origins (the distribution, the brand domains, APP_URL): the only ones CORS lets upload. */
  readonly allowedOrigins: readonly string[];
  /** Where S3 server access logs go. */
  readonly logBucket: s3.IBucket;
}

export class UnitImagesBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: UnitImagesBucketProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: unitImagesBucketName(Stack.of(this)),
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 's3-pictures/',
      removalPolicy: RemovalPolicy.RETAIN,
      cors: [
        {
          allowedOrigins: [...props.allowedOrigins],
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
          allowedHeaders: ['content-type'],
          maxAge: 3600,
        },
      ],
      lifecycleRules: [
        { id: 'abandoned-uploads', prefix: PENDING_PREFIX, expiration: Duration.days(1) },
        { id: 'report-exports', prefix: REPORTS_PREFIX, expiration: Duration.days(REPORTS_KEEP_DAYS) },
        { id: 'incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
  }

  /** ARNs of the objects under a prefix. */
  objectsUnder(prefix: string): string {
    return this.bucket.arnForObjects(`${prefix}*`);
  }
}
