/**
 * Structured logs (Powertools Logger). Secrets never reach a log line: the JSON replacer blanks any
 * value whose key names a password, token, code, secret or credential, at any depth.
 */
import { Logger } from '@aws-lambda-powertools/logger';

const SECRET_KEY = /pass(word)?|token|secret|authorization|cookie|code|otp|challenge|credential|jwt|fingerprint/i;

export function redactReplacer(key: string, value: unknown): unknown {
  if (key !== '' && SECRET_KEY.test(key) && value !== null && value !== undefined && typeof value !== 'object') {
    return '[REDACTED]';
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

export const logger = new Logger({
  serviceName: 'tracking-portal',
  logLevel: (process.env.LOG_LEVEL as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | undefined) ?? 'INFO',
  jsonReplacerFn: redactReplacer,
});
