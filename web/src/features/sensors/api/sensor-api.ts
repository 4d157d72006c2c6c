/**
 * A unit's BLE sensors (docs/api.md "Sensors"): the list, add, edit, send the pairing again and
 * unpair. Every call answers the whole list, which replaces the cached one; answers are checked
 * against shared/schemas/sensors.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { sensorListSchema, type SensorCreateRequest, type SensorList, type SensorUpdateRequest } from '../../../../../shared/schemas/sensors';
import { apiRequest } from '../../../app/api-client';

export const sensorsQueryKey = (imei: string) => ['units', imei, 'sensors'] as const;

const listPath = (imei: string) => routes.getSensors.path.replace('{imei}', encodeURIComponent(imei));
const onePath = (imei: string, id: string) => routes.updateSensor.path.replace('{imei}', encodeURIComponent(imei)).replace('{id}', encodeURIComponent(id));

/** The sensors; a pending pairing is looked at again every 15 s besides the live channel's command messages. */
export function useSensors(imei: string) {
  return useQuery({
    queryKey: sensorsQueryKey(imei),
    queryFn: ({ signal }) => apiRequest('GET', listPath(imei), { schema: sensorListSchema, signal }),
    refetchInterval: (query) => (query.state.data?.sensors.some((s) => s.status === 'pending') ? 15_000 : 60_000),
  });
}

type Change =
  | { kind: 'add'; body: SensorCreateRequest }
  | { kind: 'edit'; id: string; body: SensorUpdateRequest }
  | { kind: 'pair'; id: string }
  | { kind: 'unpair'; id: string };

function send(imei: string, change: Change): Promise<SensorList> {
  switch (change.kind) {
    case 'add':
      return apiRequest('POST', listPath(imei), { body: change.body, schema: sensorListSchema });
    case 'edit':
      return apiRequest('PUT', onePath(imei, change.id), { body: change.body, schema: sensorListSchema });
    case 'pair':
      return apiRequest('POST', `${onePath(imei, change.id)}/pair`, { schema: sensorListSchema });
    case 'unpair':
      return apiRequest('DELETE', onePath(imei, change.id), { schema: sensorListSchema });
  }
}

export function useSensorChange(imei: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Change) => send(imei, change),
    onSuccess: (list) => queryClient.setQueryData(sensorsQueryKey(imei), list),
  });
}
