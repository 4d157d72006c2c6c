/**
 * Reading departments, tags and projects (the `organisation` table): read-only, so that the
 * functions that only show names (the units list) bundle no write of the table
 * (docs/decisions/0026-organisation-profiles-support.md). Writes are in organisation-repository.ts.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { OrganisationKind } from '../../shared/schemas/organisation';
import { tableName } from '../platform/db';
import { queryAll } from '../platform/queries';

/** What a claim's or item's sort key calls a kind; feature profiles claim their names here too. */
export type ClaimKind = OrganisationKind | 'profiles';
export const singular: Readonly<Record<ClaimKind, string>> = { departments: 'department', tags: 'tag', projects: 'project', profiles: 'profile' };

export const itemSortKey = (kind: OrganisationKind, id: string): string => `${singular[kind]}#${id}`;

export interface OrganisationRecord {
  accountId: string;
  sk: string;
  id: string;
  name: string;
  createdAt: string;
}

/** The account's items of a kind (names not sorted). */
export async function listItems(accountId: string, kind: OrganisationKind): Promise<OrganisationRecord[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('organisation'),
        KeyConditionExpression: 'accountId = :account AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':account': accountId, ':prefix': `${singular[kind]}#` },
        ExclusiveStartKey: start,
      }),
  );
  return items as unknown as OrganisationRecord[];
}

/** Id to name of the account's departments and tags, for answers that show them by name. */
export async function organisationNames(accountId: string): Promise<{ departments: Map<string, string>; tags: Map<string, string> }> {
  const [departments, tags] = await Promise.all([listItems(accountId, 'departments'), listItems(accountId, 'tags')]);
  return { departments: new Map(departments.map((d) => [d.id, d.name])), tags: new Map(tags.map((t) => [t.id, t.name])) };
}

