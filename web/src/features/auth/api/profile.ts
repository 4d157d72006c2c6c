/**
 * The caller's own profile (GET and PUT /api/v1/user/profile). The stored session user carries the
 * name and e-mail the shell shows, so both calls bring it up to date.
 */
import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { profileSchema, type Profile, type ProfileUpdate } from '../../../../../shared/schemas/auth';
import { apiRequest } from '../../../app/api-client';
import { getSessionUser, startSession } from '../../../app/session';

export const profileQueryKey = ['user', 'profile'] as const;

/** Writes the profile's name, e-mail and username into the stored session user when they changed. */
export async function syncSessionUser(profile: Profile): Promise<void> {
  const user = getSessionUser();
  if (!user || user.ID !== profile.ID) return;
  const next = { ...user, FirstName: profile.FirstName, LastName: profile.LastName, Email: profile.Email, Username: profile.Username };
  if (next.FirstName !== user.FirstName || next.LastName !== user.LastName || next.Email !== user.Email || next.Username !== user.Username) {
    await startSession(next);
  }
}

export async function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  const profile = await apiRequest(routes.getProfile.method, routes.getProfile.path, signal ? { schema: profileSchema, signal } : { schema: profileSchema });
  await syncSessionUser(profile);
  return profile;
}

export function useProfile() {
  return useQuery({ queryKey: profileQueryKey, queryFn: ({ signal }) => fetchProfile(signal) });
}

export async function updateProfile(body: ProfileUpdate): Promise<Profile> {
  const profile = await apiRequest(routes.updateProfile.method, routes.updateProfile.path, { body, schema: profileSchema });
  await syncSessionUser(profile);
  return profile;
}
