/**
 * The account administration's calls (docs/api.md "Administration: users, access, settings"):
 * users with their unit access and the account's settings. Every answer is checked against
 * shared/schemas/administration.ts. A settings change also refreshes GET /user/settings, so the
 * menu follows at once.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import {
  accountSettingsSchema,
  accountUserListSchema,
  createdUserSchema,
  type AccountSettingsUpdateRequest,
  type UserSaveRequest,
} from '../../../../../shared/schemas/administration';
import { apiRequest } from '../../../app/api-client';
import { settingsQueryKey } from '../../auth/api/settings';
import { withParams } from '../../triplog/api/trip-paths';

export const USERS_KEY = ['administration', 'users'] as const;
export const ACCOUNT_SETTINGS_KEY = ['administration', 'settings'] as const;

export function useAccountUsers() {
  return useQuery({
    queryKey: USERS_KEY,
    queryFn: ({ signal }) => apiRequest('GET', routes.getAccountUsers.path, { schema: accountUserListSchema, signal }),
  });
}

function useUserMutation<V>(run: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  // The list is asked again without waiting for it: the dialog closes as soon as the server has
  // saved, never after the list already shows the saved user (whose Edit could be clicked meanwhile).
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
  });
}

export const useCreateUser = () => useUserMutation((body: UserSaveRequest) => apiRequest('POST', routes.createAccountUser.path, { body, schema: createdUserSchema }));
export const useUpdateUser = () =>
  useUserMutation(({ id, body }: { id: string; body: UserSaveRequest }) => apiRequest('PUT', withParams(routes.updateAccountUser.path, { id }), { body }));
export const useDeleteUser = () => useUserMutation((id: string) => apiRequest('DELETE', withParams(routes.deleteAccountUser.path, { id })));

export function useAccountSettings() {
  return useQuery({
    queryKey: ACCOUNT_SETTINGS_KEY,
    queryFn: ({ signal }) => apiRequest('GET', routes.getAccountSettings.path, { schema: accountSettingsSchema, signal }),
  });
}

export function useSaveAccountSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountSettingsUpdateRequest) => apiRequest('PUT', routes.updateAccountSettings.path, { body, schema: accountSettingsSchema }),
    onSuccess: (saved) => {
      queryClient.setQueryData(ACCOUNT_SETTINGS_KEY, saved);
      return queryClient.invalidateQueries({ queryKey: settingsQueryKey });
    },
  });
}
