/**
 * Departments, tags and projects (spec sections 3, 5 and 6; docs/decisions/0026-organisation-profiles-support.md):
 * named list items of an account, unique by their normalised name within the account and kind.
 * Departments and tags are assigned to units and users; projects are what trips carry. Feature
 * profiles: named sets of features and reports an admin assigns to ordinary users, who may then use
 * only those features (admins are never limited).
 */
import { z } from 'zod';
import { IMEI_PATTERN } from '../validators/imei';
import { organisationMessageKeys as keys } from './organisation-messages';
import { profileFeatures, profileReports } from './profile-features';

export const ORGANISATION_NAME_MAX = 50;

/** The kinds of list item, as the routes name them (`/administration/organisation/{kind}`). */
export const organisationKinds = ['departments', 'tags', 'projects'] as const;
export type OrganisationKind = (typeof organisationKinds)[number];
/** The kinds that are assigned to units and users (projects are chosen per trip). */
export const assignableKinds = ['departments', 'tags'] as const satisfies readonly OrganisationKind[];
export const isAssignableKind = (kind: OrganisationKind): kind is (typeof assignableKinds)[number] => kind !== 'projects';

/** The 422 key of a name another item of the kind already has. */
export const duplicateNameKey = {
  departments: keys.DuplicateDepartmentName,
  tags: keys.DuplicateTagName,
  projects: keys.DuplicateProjectName,
} as const satisfies Record<OrganisationKind, string>;

/**
 * THE rule of when two names are the same: compared after Unicode compatibility normalisation,
 * ignoring case and surrounding whitespace, with runs of whitespace inside counted as one space.
 * ('North  region' and ' north Region' are one name.)
 */
export function normalizeOrganisationName(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** A name as stored and shown: trimmed, inner whitespace runs made one space, its case kept. */
export const tidyOrganisationName = (name: string): string => name.normalize('NFC').trim().replace(/\s+/gu, ' ');

export const organisationNameSchema = z
  .string({ message: keys.OrganisationNameRequired })
  .transform(tidyOrganisationName)
  .pipe(z.string().min(1, keys.OrganisationNameRequired).max(ORGANISATION_NAME_MAX, keys.OrganisationNameTooLong));

export const organisationKindParamSchema = z.object({ kind: z.enum(organisationKinds) });
export const organisationItemParamSchema = z.object({ kind: z.enum(organisationKinds), id: z.string().regex(/^[a-z0-9-]{1,64}$/) });

export const organisationNameRequestSchema = z.object({ name: organisationNameSchema });
export type OrganisationNameRequest = z.input<typeof organisationNameRequestSchema>;

/** PUT .../{kind}/{id}/assignments: exactly which units and users carry the department or tag; at least one. */
export const organisationAssignmentSchema = z
  .object({
    imeis: z.array(z.string().regex(IMEI_PATTERN, keys.OrganisationUnitNotFound)).max(5000).default([]),
    userIds: z.array(z.string().min(1).max(64)).max(5000).default([]),
  })
  .refine((a) => a.imeis.length + a.userIds.length > 0, { message: keys.SelectAtLeastOneUnitOrUser, path: ['imeis'] });
export type OrganisationAssignment = z.input<typeof organisationAssignmentSchema>;

export const organisationItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The units carrying it (departments and tags; empty for projects). */
  imeis: z.array(z.string()),
  /** The users carrying it (departments and tags; empty for projects). */
  userIds: z.array(z.string()),
  createdAt: z.string(),
});
export type OrganisationItem = z.infer<typeof organisationItemSchema>;
export const organisationListSchema = z.object({ items: z.array(organisationItemSchema) });
export type OrganisationList = z.infer<typeof organisationListSchema>;
export const organisationIdSchema = z.object({ id: z.string() });

/** A user of the account as the pickers show them. */
export const organisationMemberSchema = z.object({ id: z.string(), name: z.string(), email: z.string(), isAdmin: z.boolean() });
export type OrganisationMember = z.infer<typeof organisationMemberSchema>;
export const organisationMemberListSchema = z.object({ users: z.array(organisationMemberSchema) });

/** GET /user/projects: the account's project names for the trip log's picker. */
export const projectNamesSchema = z.object({ projects: z.array(z.string()) });

// ------------------------------------------------------------------------------------------------
// Feature profiles
// ------------------------------------------------------------------------------------------------

export { profileFeatures, profileReports, type ProfileFeature, type ProfileReport } from './profile-features';

const uniqueList = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .array(z.enum(values))
    .max(values.length)
    .transform((list) => [...new Set(list)]);

export const featureProfileRequestSchema = z
  .object({
    name: organisationNameSchema,
    features: uniqueList(profileFeatures),
    reports: uniqueList(profileReports).default([]),
  })
  .refine((p) => p.features.length > 0, { message: keys.SelectAtLeastOneFeature, path: ['features'] });
export type FeatureProfileRequest = z.input<typeof featureProfileRequestSchema>;

export const featureProfileParamSchema = z.object({ id: z.string().regex(/^[a-z0-9-]{1,64}$/) });
export const featureProfileUsersSchema = z.object({ userIds: z.array(z.string().min(1).max(64)).max(5000) });
export type FeatureProfileUsers = z.input<typeof featureProfileUsersSchema>;

export const featureProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  features: z.array(z.enum(profileFeatures)),
  reports: z.array(z.enum(profileReports)),
  /** Users with this profile. */
  userIds: z.array(z.string()),
  createdAt: z.string(),
});
export type FeatureProfile = z.infer<typeof featureProfileSchema>;
export const featureProfileListSchema = z.object({ profiles: z.array(featureProfileSchema) });
export type FeatureProfileList = z.infer<typeof featureProfileListSchema>;
