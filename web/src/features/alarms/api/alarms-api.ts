/**
 * The alarm receiver screen's calls (docs/api.md Administration): receivers, the users to link,
 * saving, deleting, the units of a receiver, the toggles, the alert language and time zone, and the
 * alert sender numbers. Schemas come from shared/schemas/alarms.ts; every answer is checked.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  alarmMemberListSchema,
  alarmReceiverIdSchema,
  alarmReceiverListSchema,
  alarmReceiverUnitsSchema,
  alertConfigSchema,
  alertSenderListSchema,
  type AlarmReceiverList,
  type AlarmReceiverSave,
  type AlertConfigRequest,
  type AssignUnitsRequest,
} from '../../../../../shared/schemas/alarms';
import { apiRequest } from '../../../app/api-client';

const base = '/api/v1/administration';
const nothing = z.null();

export const alarmKeys = {
  receivers: ['alarm-receivers'] as const,
  members: ['alarm-receivers', 'members'] as const,
  units: (receiverId: string) => ['alarm-receivers', 'units', receiverId] as const,
  alertConfig: ['alert-config'] as const,
  alertNumbers: ['alert-numbers'] as const,
};

export function useAlarmReceivers() {
  return useQuery({
    queryKey: alarmKeys.receivers,
    queryFn: ({ signal }) => apiRequest('GET', `${base}/alarm-receivers`, { schema: alarmReceiverListSchema, signal }),
  });
}

export function useAlarmMembers(enabled: boolean) {
  return useQuery({
    queryKey: alarmKeys.members,
    queryFn: ({ signal }) => apiRequest('GET', `${base}/alarm-receivers/members`, { schema: alarmMemberListSchema, signal }),
    enabled,
    staleTime: 0,
  });
}

export function useReceiverUnits(receiverId: string | null) {
  return useQuery({
    queryKey: alarmKeys.units(receiverId ?? ''),
    queryFn: ({ signal }) =>
      apiRequest('POST', `${base}/alarm-receivers/units`, { body: { memberId: null, receiverId, selectedOnly: true }, schema: alarmReceiverUnitsSchema, signal }),
    enabled: receiverId !== null,
    staleTime: 0,
  });
}

export function saveReceiver(body: AlarmReceiverSave) {
  return apiRequest('POST', `${base}/alarm-receivers`, { body, schema: alarmReceiverIdSchema });
}

export function deleteReceiver(id: string) {
  return apiRequest('DELETE', `${base}/alarm-receivers/${encodeURIComponent(id)}`, { schema: nothing });
}

export function assignUnits(body: AssignUnitsRequest) {
  return apiRequest('POST', `${base}/alarm-receivers/assign`, { body, schema: nothing });
}

/** A toggle saves at once and shows at once; a failure puts the row back. */
export function useToggleAlarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { receiverId: string; type: 'security' | 'function'; state: 0 | 1 }) =>
      apiRequest('POST', `${base}/alarm-receivers/toggle`, { body: v, schema: nothing }),
    onMutate: async (v) => {
      // Shown before anything is awaited, so the checkbox follows the click at once.
      const before = queryClient.getQueryData<AlarmReceiverList>(alarmKeys.receivers);
      const field = v.type === 'security' ? 'security_alarm' : 'function_alarm';
      if (before) {
        queryClient.setQueryData<AlarmReceiverList>(alarmKeys.receivers, {
          ...before,
          alarmReceivers: before.alarmReceivers.map((r) => (r.id === v.receiverId ? { ...r, [field]: v.state } : r)),
        });
      }
      // A list on its way would bring the old state back; it is asked again when this settles.
      await queryClient.cancelQueries({ queryKey: alarmKeys.receivers, exact: true }, { revert: false });
      return { before };
    },
    onError: (_error, _v, context) => {
      if (context?.before) queryClient.setQueryData(alarmKeys.receivers, context.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: alarmKeys.receivers, exact: true }),
  });
}

export function useAlertConfig() {
  return useQuery({
    queryKey: alarmKeys.alertConfig,
    queryFn: ({ signal }) => apiRequest('GET', `${base}/alertconfig/language-timezone`, { schema: alertConfigSchema, signal }),
  });
}

export function saveAlertConfig(body: AlertConfigRequest) {
  return apiRequest('POST', `${base}/alertconfig/language-timezone`, { body, schema: nothing });
}

export function useAlertNumbers() {
  return useQuery({
    queryKey: alarmKeys.alertNumbers,
    queryFn: ({ signal }) => apiRequest('GET', `${base}/alert-numbers`, { schema: alertSenderListSchema, signal }),
  });
}

export function saveAlertNumber(accountId: string, alertSenderId: string | null) {
  return apiRequest('PUT', `${base}/alert-numbers/${encodeURIComponent(accountId)}`, { body: { alertSenderId }, schema: nothing });
}
