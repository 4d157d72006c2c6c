/**
 * The environment, parsed once at cold start. A missing or malformed variable fails loudly with
 * the full list of problems instead of surfacing later as an odd runtime error.
 */
import { z } from 'zod';

const common = z.object({
  TABLE_PREFIX: z.string().min(1),
  AWS_REGION: z.string().min(1).default('eu-north-1'),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  /** Public origin of the web app (links in e-mails). */
  APP_URL: z.url(),
  /**
   * The MapLibre style of the web app's base map: on AWS the Amazon Location v2 style with the stack's
   * API key (infra/constructs/maps-key.ts); unset, the web app draws its offline style.
   */
  MAP_STYLE_URL: z.url().optional(),
});

const awsEnv = common.extend({
  RUNTIME: z.literal('aws'),
  USER_POOL_ID: z.string().min(1),
  USER_POOL_CLIENT_ID: z.string().min(1),
  MAIL_FROM: z.string().min(3),
  IOT_DATA_ENDPOINT: z.string().min(1),
  SMS_SENDER_ID: z.string().max(11).optional(),
  /**
   * The IoT Core custom authorizer of the browsers' live channel (infra/constructs/live-authorizer.ts).
   * Optional so that functions which never hand out a live connection start without it; the one
   * that does asks through `requireLiveAuthorizerName`, which names what is missing.
   */
  LIVE_AUTHORIZER_NAME: z.string().regex(/^[\w=,@-]{1,128}$/).optional(),
});

const embeddedEnv = common.extend({
  RUNTIME: z.literal('embedded'),
  DYNAMODB_ENDPOINT: z.url(),
  /** Signs the local identity adapter's tokens. */
  JWT_SECRET: z.string().min(32),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
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

/** For tests and the embedded runtime, which set the environment before the first request. */
export function resetEnvCache(): void {
  cached = undefined;
}
