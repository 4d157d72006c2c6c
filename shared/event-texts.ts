/**
 * What an event says, in words: the message key and its values for each event type. The alarm's
 * e-mail, SMS and push (functions/events/deliver-alert.ts) and the portal's event lists
 * (web/src/features/events) describe an event the same way. Texts are in shared/i18n/features/events.
 */
import type { EventType } from './schemas/events';

type Details = Readonly<Record<string, string | number | boolean | null>>;

const text = (details: Details, name: string): string => {
  const v = details[name];
  return v === null || v === undefined ? '' : String(v);
};

const keys: { readonly [T in EventType]: (d: Details) => { key: string; vars: Record<string, string> } } = {
  geofenceEnter: (d) => ({ key: 'EventGeofenceEnter', vars: { geofence: text(d, 'geofence') } }),
  geofenceExit: (d) => ({ key: 'EventGeofenceExit', vars: { geofence: text(d, 'geofence') } }),
  overspeed: (d) => ({ key: 'EventOverspeed', vars: { speed: text(d, 'speed'), limit: text(d, 'limit') } }),
  lowBattery: (d) => ({ key: 'EventLowBattery', vars: { volts: text(d, 'volts') } }),
  powerCut: () => ({ key: 'EventPowerCut', vars: {} }),
  dinChange: (d) => ({ key: d['on'] ? 'EventDinOn' : 'EventDinOff', vars: { input: text(d, 'input') } }),
  theftMovement: () => ({ key: 'EventTheftMovement', vars: {} }),
  // details.alarm: the threshold crossed (functions/sensors/readings.ts); the reading is its value and limit.
  sensorAlarm: (d) => ({
    key: d['alarm'] === 'doorOpen' ? 'EventSensorDoorOpen' : d['alarm'] === 'lowBattery' ? 'EventSensorLowBattery' : 'EventSensorAlarm',
    vars: { sensor: text(d, 'sensor'), reading: text(d, 'reading') },
  }),
  notHome: () => ({ key: 'EventNotHome', vars: {} }),
  serviceDue: (d) => ({ key: 'EventServiceDue', vars: { service: text(d, 'service') } }),
  harshAcceleration: () => ({ key: 'EventHarshAcceleration', vars: {} }),
  harshBraking: () => ({ key: 'EventHarshBraking', vars: {} }),
  harshCornering: () => ({ key: 'EventHarshCornering', vars: {} }),
  overspeedEpisode: (d) => ({ key: 'EventOverspeedEpisode', vars: { limit: text(d, 'limit'), seconds: text(d, 'seconds'), speed: text(d, 'maxSpeed') } }),
  idling: (d) => ({ key: 'EventIdling', vars: { minutes: String(Math.round(Number(d['seconds'] ?? 0) / 60)) } }),
};

export function eventDescription(type: EventType, details: Details): { key: string; vars: Record<string, string> } {
  return keys[type](details);
}
