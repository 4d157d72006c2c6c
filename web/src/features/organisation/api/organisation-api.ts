/**
 * Departments, tags, projects and feature profiles (docs/api.md Organisation): lists, create,
 * rename, delete, assignment to units and users, and profiles with their users. Every answer is
 * checked against shared/schemas/organisation.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import {
  featureProfileListSchema,
  organisationIdSchema,
  organisationListSchema,
  organisationMemberListSchema,
  projectNamesSchema,
  type FeatureProfileRequest,
  type OrganisationAssignment,
  type OrganisationKind,
} from '../../../../../shared/schemas/organisation';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

export const organisationKey = (kind: OrganisationKind) => ['organisation', kind] as const;
const PROFILES_KEY = ['feature-profiles'] as const;

export function useOrganisationItems(kind: OrganisationKind) {
  return useQuery({
    queryKey: organisationKey(kind),
    queryFn: ({ signal }) => apiRequest('GET', withParams(routes.getOrganisationItems.path, { kind }), { schema: organisationListSchema, signal }),
  });
}

export function useOrganisationMembers() {
  return useQuery({
    queryKey: ['organisation-members'],
    queryFn: ({ signal }) => apiRequest('GET', routes.getOrganisationMembers.path, { schema: organisationMemberListSchema, signal }),
  });
}

function useInvalidating<V, R>(keys: readonly (readonly unknown[])[], run: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export const useCreateItem = (kind: OrganisationKind) =>
  useInvalidating([organisationKey(kind), ['projects']], (name: string) =>
    apiRequest('POST', withParams(routes.createOrganisationItem.path, { kind }), { body: { name }, schema: organisationIdSchema }),
  );

export const useRenameItem = (kind: OrganisationKind) =>
  // The units list shows departments and tags by name.
  useInvalidating([organisationKey(kind), ['units'], ['projects']], ({ id, name }: { id: string; name: string }) =>
    apiRequest('PUT', withParams(routes.renameOrganisationItem.path, { kind, id }), { body: { name } }),
  );

export const useDeleteItem = (kind: OrganisationKind) =>
  useInvalidating([organisationKey(kind), ['units'], ['projects']], (id: string) => apiRequest('DELETE', withParams(routes.deleteOrganisationItem.path, { kind, id })));

export const useAssignItem = (kind: OrganisationKind) =>
  useInvalidating([organisationKey(kind), ['units']], ({ id, body }: { id: string; body: OrganisationAssignment }) =>
    apiRequest('PUT', withParams(routes.assignOrganisationItem.path, { kind, id }), { body }),
  );

export function useFeatureProfiles() {
  return useQuery({
    queryKey: PROFILES_KEY,
    queryFn: ({ signal }) => apiRequest('GET', routes.getFeatureProfiles.path, { schema: featureProfileListSchema, signal }),
  });
}

/** Saves a profile (new without id) and then exactly its users. */
export const useSaveProfile = () =>
  useInvalidating([PROFILES_KEY], async ({ id, body, userIds }: { id: string | null; body: FeatureProfileRequest; userIds: string[] }) => {
    const saved = id ?? (await apiRequest('POST', routes.createFeatureProfile.path, { body, schema: organisationIdSchema })).id;
    if (id) await apiRequest('PUT', withParams(routes.updateFeatureProfile.path, { id }), { body });
    await apiRequest('PUT', withParams(routes.setFeatureProfileUsers.path, { id: saved }), { body: { userIds } });
    return saved;
  });

export const useDeleteProfile = () => useInvalidating([PROFILES_KEY], (id: string) => apiRequest('DELETE', withParams(routes.deleteFeatureProfile.path, { id })));

/** The account's project names for the trip log's picker. */
export function useProjectNames() {
  return useQuery({
    queryKey: ['projects'],
    queryFn: ({ signal }) => apiRequest('GET', routes.getProjectNames.path, { schema: projectNamesSchema, signal }),
    staleTime: 60_000,
  });
}
