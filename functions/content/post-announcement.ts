import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { routes } from '../../shared/routes';
import { dynamo, tableName } from '../platform/db';
import { httpHandler } from '../platform/http';

export interface AnnouncementRecord {
  subsiteId: string;
  lang: string;
  text: string;
  /** ISO time after which the bar is no longer shown. */
  until?: string;
}

export const handler = httpHandler(routes.getAnnouncement, async ({ body, ports }) => {
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('announcements'), Key: { subsiteId: String(body.subsiteID), lang: body.lang } }),
  );
  const item = out.Item as AnnouncementRecord | undefined;
  const expired = item?.until !== undefined && Date.parse(item.until) <= ports.clock.now().getTime();
  return { text: item && !expired ? item.text : null };
});
