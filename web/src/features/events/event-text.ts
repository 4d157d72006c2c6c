/** An event in the reader's words, as the alarm messages say it (shared/event-texts.ts). */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { eventDescription } from '../../../../shared/event-texts';
import type { EventType, PortalEvent } from '../../../../shared/schemas/events';

export const EVENT_TYPE_KEYS: { readonly [T in EventType]: string } = {
  geofenceEnter: 'EventTypeGeofenceEnter',
  geofenceExit: 'EventTypeGeofenceExit',
  overspeed: 'EventTypeOverspeed',
  lowBattery: 'EventTypeLowBattery',
  powerCut: 'EventTypePowerCut',
  dinChange: 'EventTypeDinChange',
  theftMovement: 'EventTypeTheftMovement',
  sensorAlarm: 'EventTypeSensorAlarm',
  notHome: 'EventTypeNotHome',
  serviceDue: 'EventTypeServiceDue',
  harshAcceleration: 'EventTypeHarshAcceleration',
  harshBraking: 'EventTypeHarshBraking',
  harshCornering: 'EventTypeHarshCornering',
  overspeedEpisode: 'EventTypeOverspeedEpisode',
  idling: 'EventTypeIdling',
};

export function useEventText(): (event: Pick<PortalEvent, 'type' | 'details'>) => string {
  const { t } = useTranslation();
  return useCallback(
    (event) => {
      const { key, vars } = eventDescription(event.type, event.details);
      return t(key, vars);
    },
    [t],
  );
}
