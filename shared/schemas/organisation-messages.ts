/**
 * Message keys of departments, tags, projects and feature profiles (spec sections 5, 6 and 8). The
 * server answers with these keys and the browser translates them (the `organisation` text module
 * holds each of them in every language).
 */
export const organisationMessageKeys = {
  OrganisationNameRequired: 'OrganisationNameRequired',
  OrganisationNameTooLong: 'OrganisationNameTooLong',
  /** Spec section 8: 'duplicate department, tag or project names' (also when two creates race). */
  DuplicateDepartmentName: 'DuplicateDepartmentName',
  DuplicateTagName: 'DuplicateTagName',
  DuplicateProjectName: 'DuplicateProjectName',
  DuplicateFeatureProfileName: 'DuplicateFeatureProfileName',
  /** Spec section 5: 'select at least one unit, user, feature or working day'. */
  SelectAtLeastOneUnitOrUser: 'SelectAtLeastOneUnitOrUser',
  SelectAtLeastOneFeature: 'SelectAtLeastOneFeature',
  /** A unit or user of the assignment is not the account's. */
  OrganisationUnitNotFound: 'OrganisationUnitNotFound',
  OrganisationUserNotFound: 'OrganisationUserNotFound',
  /** 409: another change of the same item came first. */
  OrganisationItemChanged: 'OrganisationItemChanged',
  /** 403: the caller's feature profile does not include the feature of the route. */
  FeatureNotInProfile: 'FeatureNotInProfile',
} as const;

export type OrganisationMessageKey = (typeof organisationMessageKeys)[keyof typeof organisationMessageKeys];
