/**
 * Which events are security alarms and which function alarms (spec sections 2 and 3): an alarm
 * receiver gets an event's alarm when the receiver has the event's unit and the flag of the event's
 * class on. The alarm delivery (functions/events) and the alarm receiver screen's help section both
 * read this table; each entry names the i18n key of a one-line description.
 */
export type AlarmClass = 'security' | 'function';

export const alarmEventTypes = [
  'geofenceEnter',
  'geofenceExit',
  'theftMovement',
  'powerCut',
  'dinChange',
  'notHome',
  'overspeed',
  'lowBattery',
  'sensorAlarm',
  'serviceDue',
] as const;
export type AlarmEventType = (typeof alarmEventTypes)[number];

export interface AlarmClassEntry {
  readonly eventType: AlarmEventType;
  readonly alarmClass: AlarmClass;
  /** i18n key (shared/i18n/features/alarms) of a one-line description of the event. */
  readonly descriptionKey: string;
}

export const alarmClassTable: readonly AlarmClassEntry[] = [
  { eventType: 'geofenceEnter', alarmClass: 'security', descriptionKey: 'AlarmEventGeofenceEnter' },
  { eventType: 'geofenceExit', alarmClass: 'security', descriptionKey: 'AlarmEventGeofenceExit' },
  { eventType: 'theftMovement', alarmClass: 'security', descriptionKey: 'AlarmEventTheftMovement' },
  { eventType: 'powerCut', alarmClass: 'security', descriptionKey: 'AlarmEventPowerCut' },
  { eventType: 'dinChange', alarmClass: 'security', descriptionKey: 'AlarmEventDinChange' },
  { eventType: 'notHome', alarmClass: 'security', descriptionKey: 'AlarmEventNotHome' },
  { eventType: 'overspeed', alarmClass: 'function', descriptionKey: 'AlarmEventOverspeed' },
  { eventType: 'lowBattery', alarmClass: 'function', descriptionKey: 'AlarmEventLowBattery' },
  { eventType: 'sensorAlarm', alarmClass: 'function', descriptionKey: 'AlarmEventSensorAlarm' },
  { eventType: 'serviceDue', alarmClass: 'function', descriptionKey: 'AlarmEventServiceDue' },
];

const classes: ReadonlyMap<string, AlarmClass> = new Map(alarmClassTable.map((e) => [e.eventType, e.alarmClass]));

/** The alarm class of an event type, or null for an event that raises no alarm. */
export function alarmClassOf(eventType: string): AlarmClass | null {
  return classes.get(eventType) ?? null;
}
