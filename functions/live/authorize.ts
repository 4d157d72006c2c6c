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

/** IoT Core's limits on a custom authorizer's answer: documents, and characters per document. */
export const MAX_POLICY_DOCUMENTS = 10;
export const MAX_POLICY_DOCUMENT_CHARS = 2048;

type Statement = IotPolicyDocument['Statement'][number];
const documentOf = (statements: Statement[]): IotPolicyDocument => ({ Version: '2012-10-17', Statement: statements });
const sizeOf = (statements: Statement[]) => JSON.stringify(documentOf(statements)).length;

/**
 * The policy of one connection, as few documents of at most 2,048 characters as it takes. In IoT
 * policies `+` and `#` are plain characters and `*` is the wildcard: a topic filter is allowed
 * literally, and receiving on it needs `+` written as `*`. Throws when the grant cannot fit IoT
 * Core's limits (live-access.ts keeps every grant far below them).
 */
export function livePolicies(arnPrefix: string, clientId: string, topics: readonly string[]): IotPolicyDocument[] {
  const resources: Array<[Statement['Action'], string]> = [
    ['iot:Connect', `${arnPrefix}:client/${clientId}`],
    ...topics.map((t): [string, string] => ['iot:Subscribe', `${arnPrefix}:topicfilter/${t}`]),
    ...topics.map((t): [string, string] => ['iot:Receive', `${arnPrefix}:topic/${t.replaceAll('+', '*')}`]),
  ];
  const documents: Statement[][] = [[]];
  for (const [action, resource] of resources) {
    let current = documents[documents.length - 1] as Statement[];
    const add = (into: Statement[]): Statement[] => {
      const last = into[into.length - 1];
      return last?.Action === action
        ? [...into.slice(0, -1), { ...last, Resource: [...last.Resource, resource] }]
        : [...into, { Effect: 'Allow', Action: action, Resource: [resource] }];
    };
    let next = add(current);
    if (sizeOf(next) > MAX_POLICY_DOCUMENT_CHARS) {
      current = [];
      documents.push(current);
      next = add(current);
      if (sizeOf(next) > MAX_POLICY_DOCUMENT_CHARS) throw new Error(`a policy resource longer than a document: ${resource}`);
    }
    documents[documents.length - 1] = next;
  }
  if (documents.length > MAX_POLICY_DOCUMENTS) throw new Error(`live policy needs ${documents.length} documents; IoT Core takes ${MAX_POLICY_DOCUMENTS}`);
  return documents.map(documentOf);
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
      policyDocuments: livePolicies(iotArnPrefix(context.invokedFunctionArn), mqtt.clientId, grant.topics),
    };
  } catch (error) {
    // Refusals are answers; anything else (DynamoDB down) is logged and still refuses.
    if (!(error instanceof DomainError)) logger.error('live authorizer failed', { connection, error: error as Error });
    else logger.info('live connection refused', { connection, reason: error.key });
    return DENIED;
  }
}
