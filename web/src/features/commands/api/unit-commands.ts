/** A unit's device commands (docs/api.md: GET and POST /api/v1/user/units/{imei}/commands). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { commandListSchema, commandSchema, type Command, type CommandRequest } from '../../../../../shared/schemas/commands';
import { apiRequest } from '../../../app/api-client';
import { mergeCommand, reconcileCommands } from '../command-state';

export const unitCommandsQueryKey = (imei: string) => ['units', imei, 'commands'] as const;

const commandsPath = (imei: string) => routes.getUnitCommands.path.replace('{imei}', encodeURIComponent(imei));

export function fetchUnitCommands(imei: string, signal?: AbortSignal): Promise<Command[]> {
  return apiRequest(routes.getUnitCommands.method, commandsPath(imei), { schema: commandListSchema, ...(signal ? { signal } : {}) });
}

export function sendUnitCommand(imei: string, body: CommandRequest): Promise<Command> {
  return apiRequest(routes.postUnitCommand.method, routes.postUnitCommand.path.replace('{imei}', encodeURIComponent(imei)), {
    body,
    schema: commandSchema,
  });
}

/** The latest commands, newest first; the live channel keeps them current (see useLiveCommandUpdates). */
export function useUnitCommands(imei: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: unitCommandsQueryKey(imei),
    queryFn: async ({ signal }) => {
      const fetched = await fetchUnitCommands(imei, signal);
      // A live message that arrived while the list was on its way is newer than the list: keep it.
      return reconcileCommands(fetched, queryClient.getQueryData<Command[]>(unitCommandsQueryKey(imei)) ?? []);
    },
    // Live messages keep the list current, so only a new mount (or a reconnect) asks again.
    staleTime: Infinity,
  });
}

/** Puts one command (from an answer or a live message) into the unit's cached list. */
export function storeCommand(queryClient: ReturnType<typeof useQueryClient>, command: Command): void {
  queryClient.setQueryData<Command[]>(unitCommandsQueryKey(command.imei), (list) => (list ? mergeCommand(list, command) : list));
}

export function useSendUnitCommand(imei: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommandRequest) => sendUnitCommand(imei, body),
    onSuccess: (command) => storeCommand(queryClient, command),
    // The new command cancelled an older one, and a 409 names one the list may not hold yet: ask again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: unitCommandsQueryKey(imei) }),
  });
}
