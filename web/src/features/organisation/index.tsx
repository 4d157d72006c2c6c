/**
 * The administration tabs of departments, tags, projects and feature profiles, for the account
 * page (/administration/user-accounts) to mount beside its own: each entry is a self-contained
 * tab (it loads its own data). Their texts are the `organisation` feature module, which the page
 * must load (lazyFeature 'organisation').
 */
import type { ReactNode } from 'react';
import { FeatureProfilesTab } from './components/feature-profiles-tab';
import { OrganisationItemsTab } from './components/organisation-items-tab';

export const DepartmentsTab = () => <OrganisationItemsTab kind="departments" />;
export const TagsTab = () => <OrganisationItemsTab kind="tags" />;
export const ProjectsTab = () => <OrganisationItemsTab kind="projects" />;
export { FeatureProfilesTab, OrganisationItemsTab };

export interface OrganisationTab {
  readonly id: 'departments' | 'tags' | 'projects' | 'featureProfiles';
  /** i18n key of the tab's label (the organisation module). */
  readonly labelKey: string;
  readonly element: ReactNode;
}

export const organisationTabs: readonly OrganisationTab[] = [
  { id: 'departments', labelKey: 'OrgTabDepartments', element: <DepartmentsTab /> },
  { id: 'tags', labelKey: 'OrgTabTags', element: <TagsTab /> },
  { id: 'projects', labelKey: 'OrgTabProjects', element: <ProjectsTab /> },
  { id: 'featureProfiles', labelKey: 'OrgTabFeatureProfiles', element: <FeatureProfilesTab /> },
];
