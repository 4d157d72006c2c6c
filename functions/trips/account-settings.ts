/**
 * What the trip log reads of the accounts item. The administration settings (docs/api.md
 * Administration: `defaultPurposes` and the account flags of spec section 6) do not store these
 * yet; until they do, each is absent and the rules below allow what the spec allows by default
 * (free text). Stored attribute names, for the settings page to write:
 *
 * - `defaultPurposes`: string list, the account's default purposes;
 * - `allowUserPurposes`: boolean, users may write their own purpose (absent: true);
 * - `projects`: string list, the account's projects;
 * - `allowUserProjects`: boolean, users may name their own project (absent: true);
 * - `allowQrCheckInWithoutAccess`: boolean, a user without access to a unit may check in on it by
 *   its QR code (absent: false);
 * - `retentionDays`: positions and trips are kept this long (as ingest reads it).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { dynamo, tableName } from '../platform/db';

/** Spec: raw positions are kept 13 months unless the account says otherwise (as functions/ingest/repository.ts). */
export const DEFAULT_RETENTION_DAYS = 395;

const names = z.array(z.string()).optional().catch(undefined);
const flag = z.boolean().optional().catch(undefined);

const tripAccountSettingsSchema = z.object({
  defaultPurposes: names,
  allowUserPurposes: flag,
  projects: names,
  allowUserProjects: flag,
  allowQrCheckInWithoutAccess: flag,
  retentionDays: z.number().positive().optional().catch(undefined),
});
export type TripAccountSettings = z.infer<typeof tripAccountSettingsSchema>;

export async function tripAccountSettings(accountId: string): Promise<TripAccountSettings> {
  const out = await dynamo().send(
    new GetCommand({
      TableName: tableName('accounts'),
      Key: { accountId },
      ProjectionExpression: 'defaultPurposes, allowUserPurposes, projects, allowUserProjects, allowQrCheckInWithoutAccess, retentionDays',
    }),
  );
  return tripAccountSettingsSchema.parse(out.Item ?? {});
}

const sameName = (a: string, b: string) => a.trim().localeCompare(b.trim(), undefined, { sensitivity: 'accent' }) === 0;

/**
 * THE rule for a trip's purpose: free text where the account lets users write their own (the
 * default while no setting exists), otherwise one of the account's default purposes (compared
 * ignoring case). Clearing it is always allowed.
 */
export function purposeAllowed(settings: TripAccountSettings, purpose: string | null): boolean {
  if (purpose === null || settings.allowUserPurposes !== false) return true;
  return (settings.defaultPurposes ?? []).some((p) => sameName(p, purpose));
}

/** The same rule for a trip's project, over the account's projects. */
export function projectAllowed(settings: TripAccountSettings, project: string | null): boolean {
  if (project === null || settings.allowUserProjects !== false) return true;
  return (settings.projects ?? []).some((p) => sameName(p, project));
}

/** Whether a user without access to a unit may check in on it by its QR code (default: no). */
export const qrCheckInWithoutAccessAllowed = (settings: TripAccountSettings): boolean => settings.allowQrCheckInWithoutAccess === true;

export const retentionDaysOf = (settings: TripAccountSettings): number => settings.retentionDays ?? DEFAULT_RETENTION_DAYS;
