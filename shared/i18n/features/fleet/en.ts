/**
 * English texts of the fleet overview (web/src/features/fleet, GET /api/v1/user/fleet-overview).
 * Merged into the flat key space (shared/i18n/index.ts).
 */
export const fleetEn = {
  FleetStatusHeading: 'Units now',
  FleetUnitsTotal: 'Units: {{count}}',
  FleetMoving: 'Moving',
  FleetIdling: 'Idling',
  FleetParked: 'Parked',
  FleetOffline: 'Offline',
  FleetTripsHeading: 'Driving',
  FleetToday: 'Today',
  FleetThisWeek: 'This week (from Monday)',
  FleetDistance: '{{distance}} km',
  FleetTrips: 'Trips: {{count}}',
  FleetFollowUpHeading: 'To follow up',
  FleetAlarms: 'Alarms, last 24 hours',
  FleetAlarmsMore: 'more than {{count}}',
  FleetService: 'Units needing service',
  FleetServiceOverdue: 'Overdue: {{count}}',
  FleetUnattested: 'Months with unattested trips',
  FleetUnattestedOf: 'of the last {{count}} months',
  FleetUnattestedMonth: '{{month}} (units: {{count}})',
  FleetShowOnMap: 'Show {{status}} units on the map',
  FleetTripsByUnit: 'Summary report by unit',
  FleetOpen: 'Open',
  FleetUpdated: 'Updated {{time}}',
  FleetRefresh: 'Refresh',
  FleetLoadFailed: 'The fleet overview could not be loaded.',
  FleetEmptyTitle: 'No units yet',
  FleetEmpty: 'Once units are added to the account, their figures show here.',
  FleetMakeLanding: 'Start here after login',
  FleetLandingSaved: 'The fleet overview is now your start page.',
  FleetLandingRemoved: 'You start on the default page again.',
  InvalidAttestMonths: 'The number of months must be from 1 to 12.',
} as const;

export type FleetMessages = { readonly [K in keyof typeof fleetEn]: string };
