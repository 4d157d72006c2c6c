/**
 * A key's call log (table `apiKeyCalls`, written by the middleware through
 * functions/platform/api-key-auth.ts), read newest first in pages. The cursor is bound to the
 * account and the key; the key is always checked to be the caller's account's first.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyCallList } from '../../shared/schemas/api-keys';
import { dynamo, tableName } from '../platform/db';
import { decodePageCursor, encodePageCursor, invalidCursor } from '../platform/page-cursor';

export const DEFAULT_CALL_PAGE = 50;

export async function listApiKeyCalls(accountId: string, keyId: string, page: { limit?: number | undefined; cursor?: string | undefined }): Promise<ApiKeyCallList> {
  const bind = ['apiKeyCalls', accountId, keyId];
  let start: Record<string, unknown> | undefined;
  if (page.cursor) {
    const [sk] = decodePageCursor(page.cursor, bind);
    if (typeof sk !== 'string') throw invalidCursor();
    start = { keyId, sk };
  }
  const limit = page.limit ?? DEFAULT_CALL_PAGE;
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('apiKeyCalls'),
      KeyConditionExpression: 'keyId = :key',
      ExpressionAttributeValues: { ':key': keyId },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  const items = out.Items ?? [];
  const calls = items.map((item) => ({
    at: String(item['at'] ?? ''),
    operationId: String(item['operationId'] ?? ''),
    method: String(item['method'] ?? ''),
    path: String(item['path'] ?? ''),
    status: Number(item['status'] ?? 0),
    client: String(item['client'] ?? ''),
  }));
  const last = out.LastEvaluatedKey?.['sk'];
  return { calls, nextCursor: typeof last === 'string' && items.length === limit ? encodePageCursor(bind, [last]) : null };
}
