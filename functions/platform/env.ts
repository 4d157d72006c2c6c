/**
 * The environment, parsed once at cold start. A missing or malformed variable fails loudly with
 * the full list of problems instead of surfacing later as an odd runtime error.
 */
import { z } from 'zod';
import { ALERT_SENDER_PATTERN } from '../../shared/schemas/alarms';
import { queueList, type QueueName } from '../../shared/queues';
import { tables, type TableKey } from '../../shared/tables';

const tableKeys = Object.keys(tables) as [TableKey, ...TableKey[]];

/**
 * `{"users":"<stack>-users",...}`: the tables granted to this function, by manifest key, as the
 * stack binds them (infra/constructs/resource-grants.ts). A table that is not here was not granted.
 */
const jsonRecord = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
const boundTables = jsonRecord(z.partialRecord(z.enum(tableKeys), z.string().min(1)));
const queueNames = queueList.map((q) => q.name) as [QueueName, ...QueueName[]];

const common = z.object({
  AWS_REGION: z.string().min(1).default('eu-north-1'),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  /** Public origin of the web app (links in e-mails). */
  APP_URL: z.url(),
  /**
   * The MapLibre style of the web app's base map: on AWS the Amazon Location v2 style with the stack's
   * API key (infra/constructs/maps-key.ts); unset, the web app draws its offline style.
   */
  MAP_STYLE_URL: z.url().optional(),
  /**
   * The self-hosted street map: a Protomaps basemap archive (PMTiles), root-relative on the web
   * app's own origin (`/basemap/basemap.pmtiles` behind CloudFront), its fonts and sprites beside it.
   */
  BASEMAP_URL: z.string().regex(/^(\/[A-Za-z0-9._-]+)+\.pmtiles$/).optional(),
});

const awsEnv = common.extend({
  RUNTIME: z.literal('aws'),
  /** Unset for a function granted no table. */
  TABLES: boundTables.default({}),
  /**
   * The secret CloudFront sends with every API request (shared/edge-headers.ts). Only the HTTP
   * functions get it; `originSecretOf` refuses to serve HTTP without it.
   */
  ORIGIN_SECRET: z.string().min(32).optional(),
  USER_POOL_ID: z.string().min(1),
  USER_POOL_CLIENT_ID: z.string().min(1),
  MAIL_FROM: z.string().min(3),
  IOT_DATA_ENDPOINT: z.string().min(1),
  /** The sender of SMS whose account names none (CDK context `smsSenderId`): a sender id or an E.164 number. */
  SMS_SENDER_ID: z.string().regex(ALERT_SENDER_PATTERN).optional(),
  /**
   * `{"alert-delivery":"https://sqs...",...}`: the work queues of shared/queues.ts this function
   * may send to, as the stack binds them (infra/constructs/work-queues.ts).
   */
  QUEUE_URLS: jsonRecord(z.partialRecord(z.enum(queueNames), z.url())).default({}),
  /**
   * The IoT Core custom authorizer of the browsers' live channel (infra/constructs/live-authorizer.ts).
   * Optional so that functions which never hand out a live connection start without it; the one
   * that does asks through `requireLiveAuthorizerName`, which names what is missing.
   */
  LIVE_AUTHORIZER_NAME: z.string().regex(/^[\w=,@-]{1,128}$/).optional(),
  /** The private bucket of uploaded files (infra/constructs/unit-images-bucket.ts), for the functions that declare `files`. */
  FILES_BUCKET: z.string().min(3).optional(),
  /** The name prefix of the accounts' Autoplan secrets (`<prefix><accountId>`), for the functions that declare `autoplan`. */
  AUTOPLAN_SECRET_PREFIX: z.string().min(1).optional(),
  /** The secret holding the seed of the VAPID keys (docs/decisions/0048-web-push.md), for the functions that declare `webPush`. */
  VAPID_SECRET_ARN: z.string().min(1).optional(),
  /** The VAPID subject (`mailto:` or https); the APP_URL when unset. */
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:\/\/)\S+$/).optional(),
});

const embeddedEnv = common.extend({
  RUNTIME: z.literal('embedded'),
  /** Every table of the manifest exists as `<prefix><name>`; the local runtime has no grants. */
  TABLE_PREFIX: z.string().min(1),
  DYNAMODB_ENDPOINT: z.url(),
  /** Selects the runtime's own database in DynamoDB Local, which keeps one per access key id. */
  DYNAMODB_ACCESS_KEY_ID: z.string().regex(/^[A-Za-z0-9]{1,128}$/),
  /** Signs the local identity adapter's tokens. */
  JWT_SECRET: z.string().min(32),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
  /** Where uploaded files live (DATA_DIR/files); unset, they are kept in memory (`--ephemeral`, tests). */
  FILES_DIR: z.string().min(1).optional(),
  /** The seed of the VAPID keys: kept in DATA_DIR, or random per start with --ephemeral (infra/local/runtime.ts). */
  VAPID_SEED: z.string().min(32).optional(),
  /**
   * A certificate (PEM) the webhook sender trusts beside the system's roots, for an HTTPS receiver
   * on this machine with a certificate of its own (the webhook tests). There is none on AWS.
   */
  WEBHOOK_CA: z.string().includes('BEGIN CERTIFICATE').optional(),
});

export const envSchema = z.discriminatedUnion('RUNTIME', [awsEnv, embeddedEnv]);
export type Env = z.infer<typeof envSchema>;
export type AwsEnv = z.infer<typeof awsEnv>;
export type EmbeddedEnv = z.infer<typeof embeddedEnv>;

export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || 'RUNTIME'}: ${i.message}`);
    throw new EnvironmentError(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The live channel's custom authorizer name on AWS, or a clear error when the stack did not set it. */
export function requireLiveAuthorizerName(env: AwsEnv): string {
  if (!env.LIVE_AUTHORIZER_NAME) {
    throw new EnvironmentError(
      'LIVE_AUTHORIZER_NAME is not set: the live channel needs the IoT Core custom authorizer (infra/constructs/live-authorizer.ts) and its name in the functions\' environment',
    );
  }
  return env.LIVE_AUTHORIZER_NAME;
}

/**
 * The origin secret an HTTP request must carry, or null in the embedded runtime, which has no
 * CloudFront in front of it. On AWS a missing secret is an error, never a reason to skip the check.
 */
export function originSecretOf(env: Env): string | null {
  if (env.RUNTIME === 'embedded') return null;
  if (!env.ORIGIN_SECRET) {
    throw new EnvironmentError(
      'ORIGIN_SECRET is not set: HTTP functions on AWS accept only requests that carry the origin secret CloudFront adds (infra/constructs/api-origin.ts)',
    );
  }
  return env.ORIGIN_SECRET;
}

/** For tests and the embedded runtime, which set the environment before the first request. */
export function resetEnvCache(): void {
  cached = undefined;
}
