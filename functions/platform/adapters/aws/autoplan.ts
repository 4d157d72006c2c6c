/**
 * Autoplan over HTTPS (docs/decisions/0039-autoplan.md). Each account has its own Autoplan agreement,
 * so its endpoint and credentials are a secret of its own in Secrets Manager, named
 * `<AUTOPLAN_SECRET_PREFIX><accountId>` and holding `{ "url": "https://…", "token": "…",
 * "customerNumber"?: "…" }`. The stack grants GetSecretValue on the prefix only; nothing of a secret
 * is in the template, the environment or a log line. A secret is kept in memory for a few minutes
 * per instance, so a job reporting a fleet reads it once.
 *
 * Autoplan publishes no API; what is sent is the month's figures as JSON with a bearer token and an
 * idempotency key, and the answer is read as: 2xx taken (`reference` its receipt), 404/422 with
 * `code` NoLicencePlateMatch or ServiceCar one of the spec's refusals, 408/429/5xx, a time-out or
 * no connection "no response", anything else a rejection.
 */
import { GetSecretValueCommand, ResourceNotFoundException, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { z } from 'zod';
import {
  AutoplanNoResponseError,
  AutoplanNotConfiguredError,
  AutoplanRejectedError,
  type Autoplan,
  type AutoplanOutcome,
  type AutoplanSubmission,
} from '../../ports';

const secretSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  token: z.string().min(1),
  customerNumber: z.string().min(1).optional(),
});
type AutoplanSecret = z.infer<typeof secretSchema>;

export interface HttpsAutoplanConfig {
  client: SecretsManagerClient;
  /** AUTOPLAN_SECRET_PREFIX: unset for a function the stack did not grant Autoplan. */
  secretPrefix: string | undefined;
  timeoutMs?: number;
  /** How long a read secret is used before it is read again. */
  secretTtlMs?: number;
  /** Tests talk to a plain-HTTP server on the loopback address; a deployment never does. */
  allowLoopbackHttp?: boolean;
  now?: () => number;
}

const answerSchema = z.object({ reference: z.union([z.string(), z.number()]).optional(), code: z.string().optional() }).catch({});

/** Autoplan's refusals by its `code` (spec section 8). */
const refusals: Readonly<Record<string, AutoplanOutcome>> = {
  NoLicencePlateMatch: { status: 'noLicencePlateMatch' },
  ServiceCar: { status: 'serviceCar' },
};

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]');
}

export function createHttpsAutoplan(config: HttpsAutoplanConfig): Autoplan {
  // Inside the HTTP function's 10 s, so a report Autoplan did not answer is given back in time.
  const timeoutMs = config.timeoutMs ?? 6_000;
  const ttlMs = config.secretTtlMs ?? 5 * 60_000;
  const now = config.now ?? Date.now;
  const secrets = new Map<string, { secret: AutoplanSecret; until: number }>();

  async function secretOf(accountId: string): Promise<AutoplanSecret> {
    const cached = secrets.get(accountId);
    if (cached && cached.until > now()) return cached.secret;
    if (!config.secretPrefix) throw new Error('AUTOPLAN_SECRET_PREFIX is not set: the stack grants Autoplan only to the functions that declare it (shared/capability-resources.ts)');
    let text: string | undefined;
    try {
      text = (await config.client.send(new GetSecretValueCommand({ SecretId: `${config.secretPrefix}${accountId}` }))).SecretString;
    } catch (error) {
      if (error instanceof ResourceNotFoundException) throw new AutoplanNotConfiguredError(`no Autoplan secret for account ${accountId}`);
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text ?? '');
    } catch {
      parsed = null;
    }
    const result = secretSchema.safeParse(parsed);
    // Which fields are wrong, never their values.
    if (!result.success) throw new AutoplanNotConfiguredError(`the Autoplan secret of account ${accountId} is malformed: ${result.error.issues.map((i) => i.path.join('.') || 'secret').join(', ')}`);
    const url = new URL(result.data.url);
    if (url.protocol !== 'https:' && !(config.allowLoopbackHttp && isLoopbackHttp(url))) {
      throw new AutoplanNotConfiguredError(`the Autoplan secret of account ${accountId} names an endpoint that is not https`);
    }
    secrets.set(accountId, { secret: result.data, until: now() + ttlMs });
    return result.data;
  }

  return {
    async report(submission: AutoplanSubmission): Promise<AutoplanOutcome> {
      const secret = await secretOf(submission.accountId);
      const body = {
        ...(secret.customerNumber ? { customerNumber: secret.customerNumber } : {}),
        registrationNumber: submission.registrationNumber,
        period: submission.month,
        odometerStartKm: submission.odometerStart,
        odometerEndKm: submission.odometerEnd,
        trips: submission.trips,
        totalKm: submission.distanceKm,
        businessKm: submission.businessKm,
        privateKm: submission.privateKm,
        otherKm: submission.otherKm,
      };
      let response: Response;
      try {
        response = await fetch(secret.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            authorization: `Bearer ${secret.token}`,
            'idempotency-key': submission.idempotencyKey,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (error) {
        throw new AutoplanNoResponseError(`Autoplan did not answer: ${(error as Error).name}`);
      }
      const text = await response.text().catch(() => '');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = {};
      }
      const answer = answerSchema.parse(json ?? {});
      if (response.ok) return { status: 'accepted', reference: answer.reference === undefined ? null : String(answer.reference) };
      if (response.status === 408 || response.status === 429 || response.status >= 500) throw new AutoplanNoResponseError(`Autoplan answered ${response.status}`);
      const refusal = (response.status === 404 || response.status === 422) && answer.code ? refusals[answer.code] : undefined;
      if (refusal) return refusal;
      throw new AutoplanRejectedError(`Autoplan answered ${response.status}${answer.code ? ` (${answer.code})` : ''}`);
    },
  };
}
