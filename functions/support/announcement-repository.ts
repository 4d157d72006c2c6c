/** The announcement bar texts (the `announcements` table, read by functions/content/post-announcement.ts) as support writes them. */
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { subsiteIds, type Language } from '../../shared/schemas/common';
import type { SupportAnnouncement } from '../../shared/schemas/support';
import { dynamo, tableName } from '../platform/db';

export async function listAnnouncements(): Promise<SupportAnnouncement[]> {
  const perBrand = await Promise.all(
    subsiteIds.map(async (subsiteId) => {
      const out = await dynamo().send(
        new QueryCommand({ TableName: tableName('announcements'), KeyConditionExpression: 'subsiteId = :s', ExpressionAttributeValues: { ':s': String(subsiteId) } }),
      );
      return (out.Items ?? []).map(
        (i): SupportAnnouncement => ({ subsiteId, lang: i['lang'] as Language, text: String(i['text'] ?? ''), until: typeof i['until'] === 'string' ? i['until'] : null }),
      );
    }),
  );
  return perBrand.flat();
}

export async function putAnnouncement(subsiteId: number, lang: Language, text: string, until: string | null): Promise<void> {
  await dynamo().send(
    new PutCommand({ TableName: tableName('announcements'), Item: { subsiteId: String(subsiteId), lang, text, ...(until ? { until: new Date(until).toISOString() } : {}) } }),
  );
}

export async function deleteAnnouncement(subsiteId: number, lang: Language): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName('announcements'), Key: { subsiteId: String(subsiteId), lang } }));
}
