/**
 * Every page of a Query, the same way for every capability. The request is written by the caller,
 * where the grant check (shared/capability-resources.ts) reads its table.
 */
import { type QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './db';

export type PageStart = QueryCommandOutput['LastEvaluatedKey'];

/** Every item of a Query, following it page by page. */
export async function queryAll(command: (start: PageStart) => QueryCommand): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: PageStart;
  do {
    const page: QueryCommandOutput = await dynamo().send(command(start));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
