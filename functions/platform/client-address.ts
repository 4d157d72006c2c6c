/**
 * Where a request comes from. On AWS every API request reaches API Gateway through CloudFront, so
 * API Gateway's `sourceIp` is a CloudFront edge server, shared by everyone that edge serves.
 * CloudFront adds the viewer's address and the origin secret (shared/edge-headers.ts); the address
 * counts only on a request whose secret matched, since anybody can call the execute-api endpoint
 * directly with any header. The embedded runtime has no CloudFront: its `sourceIp` is the socket's.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/edge-headers';
import { clientAddressKey } from '../../shared/network';
import { getEnv, originSecretOf } from './env';
import { ForbiddenError } from './errors';
import { logger } from './logger';

type EventHeaders = APIGatewayProxyEventV2['headers'] | undefined;

function headerOf(headers: EventHeaders, name: string): string | undefined {
  if (!headers) return undefined;
  if (name in headers) return headers[name];
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/**
 * Compares digests rather than the strings, so that neither the secret's length nor how much of
 * a guess matched shows in the time the comparison takes.
 */
export function isOriginSecret(presented: string | undefined, secret: string): boolean {
  if (presented === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(secret));
}

// Requests whose origin secret matched: only these may name the viewer's address.
const throughCloudFront = new WeakSet<object>();

/**
 * Refuses (403) a request that did not come through CloudFront, when this runtime has an origin
 * secret. The secret header is removed afterwards, so that no handler or log can pass it on.
 */
export function assertFromOrigin(event: Pick<APIGatewayProxyEventV2, 'headers'>): void {
  const secret = originSecretOf(getEnv());
  if (secret === null) return;
  if (!isOriginSecret(headerOf(event.headers, ORIGIN_SECRET_HEADER), secret)) throw new ForbiddenError();
  for (const key of Object.keys(event.headers ?? {})) if (key.toLowerCase() === ORIGIN_SECRET_HEADER) delete event.headers[key];
  throughCloudFront.add(event);
}

let warnedMissingViewer = false;

/**
 * The address a per-client limit counts (see `clientAddressKey`: IPv6 by /64): the viewer's, on a
 * request that came through CloudFront, otherwise the source address API Gateway saw. Headers the
 * client sets (X-Forwarded-For, a viewer-address header on a direct call) are never believed.
 */
export function clientAddress(event: Pick<APIGatewayProxyEventV2, 'requestContext' | 'headers'>): string {
  if (throughCloudFront.has(event)) {
    const viewer = clientAddressKey(headerOf(event.headers, VIEWER_ADDRESS_HEADER));
    if (viewer) return viewer;
    if (!warnedMissingViewer) {
      warnedMissingViewer = true;
      // A stack whose CloudFront Function no longer stamps the address: limits fall back to the edge.
      logger.warn('request through CloudFront without a viewer address: counting the edge server instead', { header: VIEWER_ADDRESS_HEADER });
    }
  }
  const source = event.requestContext?.http?.sourceIp;
  return clientAddressKey(source) ?? (source || 'unknown');
}
