/**
 * The IoT Core custom authorizer of the browsers' live channel (AWS only; the embedded broker asks
 * infra/local/live-authorizer.ts, which calls the same `authorizeLive`). IoT Core invokes it on
 * every MQTT-over-WebSocket CONNECT naming it, with the CONNECT's username, password (base64) and
 * client id, and again every `refreshAfterInSeconds` while the connection lasts, so a logout or a
 * withdrawn unit takes effect within that interval. The answer is an IoT policy allowing exactly:
 * connecting as this client id, subscribing to the granted topic filters and receiving on them.
 */
import type { Context } from 'aws-lambda';
import { DomainError } from '../platform/errors';
import { logger } from '../platform/logger';
import { authorizeLive } from './live-access';

/** The part of IoT Core's authorizer event this authorizer reads (MQTT over WebSocket). */
export interface IotAuthorizerEvent {
  protocols?: string[];
  protocolData?: {
    mqtt?: { username?: string; password?: string; clientId?: string };
  };
  connectionMetadata?: { id?: string };
}

export interface IotPolicyDocument {
  Version: '2012-10-17';
  Statement: { Effect: 'Allow'; Action: string; Resource: string[] }[];
}

export interface IotAuthorizerResult {
  isAuthenticated: boolean;
  principalId: string;
  disconnectAfterInSeconds: number;
  refreshAfterInSeconds: number;
  policyDocuments: IotPolicyDocument[];
}

/** IoT Core accepts 300 to 86 400 seconds for both intervals. */
export const MIN_SECONDS = 300;
export const MAX_SECONDS = 86_400;
/** As often as IoT Core allows: how late a logout or a withdrawn grant reaches an open connection. */
export const REFRESH_SECONDS = MIN_SECONDS;

const clamp = (seconds: number) => Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, Math.floor(seconds)));

const DENIED: IotAuthorizerResult = {
  isAuthenticated: false,
  principalId: 'denied',
  disconnectAfterInSeconds: MIN_SECONDS,
  refreshAfterInSeconds: MIN_SECONDS,
  policyDocuments: [],
};

/** `arn:<partition>:iot:<region>:<account>`, from the authorizer function's own ARN. */
export function iotArnPrefix(invokedFunctionArn: string): string {
  const [arn, partition, , region, account] = invokedFunctionArn.split(':');
  if (arn !== 'arn' || !partition || !region || !account) throw new Error(`not a function ARN: ${invokedFunctionArn}`);
  return `arn:${partition}:iot:${region}:${account}`;
}

/**
 * The policy of one connection. In IoT policies `+` and `#` are plain characters and `*` is the
 * wildcard: a topic filter is allowed literally, and receiving on it needs `+` written as `*`.
 */
export function livePolicy(arnPrefix: string, clientId: string, topics: readonly string[]): IotPolicyDocument {
  const connect: IotPolicyDocument['Statement'][number] = { Effect: 'Allow', Action: 'iot:Connect', Resource: [`${arnPrefix}:client/${clientId}`] };
  // A statement without resources is not a valid policy: a user without units may only connect.
  if (!topics.length) return { Version: '2012-10-17', Statement: [connect] };
  return {
    Version: '2012-10-17',
    Statement: [
      connect,
      { Effect: 'Allow', Action: 'iot:Subscribe', Resource: topics.map((t) => `${arnPrefix}:topicfilter/${t}`) },
      { Effect: 'Allow', Action: 'iot:Receive', Resource: topics.map((t) => `${arnPrefix}:topic/${t.replaceAll('+', '*')}`) },
    ],
  };
}

/** IoT principal ids are 1 to 128 letters and digits. */
const principalIdOf = (userId: string) => userId.replace(/[^A-Za-z0-9]/g, '').slice(0, 128) || 'user';

export async function handler(event: IotAuthorizerEvent, context: Pick<Context, 'invokedFunctionArn'>): Promise<IotAuthorizerResult> {
  const mqtt = event.protocolData?.mqtt;
  const connection = event.connectionMetadata?.id;
  if (!mqtt?.password || !mqtt.clientId) {
    logger.info('live connection refused', { connection, reason: 'no password or client id' });
    return DENIED;
  }
  const token = Buffer.from(mqtt.password, 'base64').toString('utf8');
  try {
    const grant = await authorizeLive(token, mqtt.clientId);
    return {
      isAuthenticated: true,
      principalId: principalIdOf(grant.auth.userId),
      // A token with less than the 300 s minimum left keeps the connection up to that long; the
      // policy refresh at the same moment then refuses the expired token.
      disconnectAfterInSeconds: clamp(grant.expiresInSeconds),
      refreshAfterInSeconds: REFRESH_SECONDS,
      policyDocuments: [livePolicy(iotArnPrefix(context.invokedFunctionArn), mqtt.clientId, grant.topics)],
    };
  } catch (error) {
    // Refusals are answers; anything else (DynamoDB down) is logged and still refuses.
    if (!(error instanceof DomainError)) logger.error('live authorizer failed', { connection, error: error as Error });
    else logger.info('live connection refused', { connection, reason: error.key });
    return DENIED;
  }
}
