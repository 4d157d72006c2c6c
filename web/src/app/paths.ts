import { matchWebRoute, type PathName } from '../../../shared/web-routes';

/** Every browser route of spec section 2, once: shared/web-routes.ts, which the web vitals endpoint reads too. */
export { paramRoutes, paths, routePatternOf, type PathName } from '../../../shared/web-routes';

/** Page title (an i18n key) of each route; the header and the document title show it. */
export const pageTitleKeys: Readonly<Record<PathName, string>> = {
  outbox: 'OutboxTitle',
  login: 'Login',
  register: 'Register',
  forgotPassword: 'ForgotPasswordTitle',
  resetPassword: 'ResetPasswordTitle',
  accountDeletion: 'AccountDeletionTitle',
  alertOptOut: 'AlertOptOutTitle',
  alerts: 'Alerts',
  realtimeTracking: 'Map',
  fleetOverview: 'FleetOverview',
  createTriplog: 'Triplog',
  congestionReport: 'CongestionReport',
  reports: 'Reports',
  geofences: 'Geofence',
  addEditGeofence: 'AddEditGeofence',
  places: 'Places',
  addEditPlace: 'AddEditPlace',
  editTerminal: 'EditUnit',
  editTerminalList: 'Unit',
  carSchedule: 'CarSchedule',
  myTrips: 'MyTrips',
  checkIn: 'DriverCheckIn',
  userAccounts: 'Account',
  addTerminal: 'AddUnit',
  safeReturnHome: 'SafeReturnHome',
  alarmReceiver: 'AlarmReceiver',
  rfidCards: 'ManageRFIDCards',
  alertNumbers: 'AlertNumbers',
  attestStatus: 'AttestStatus',
  webhooks: 'Webhooks',
  apiKeys: 'ApiKeys',
  support: 'Support',
  supportWebVitals: 'WebVitals',
};

const publicNames: ReadonlySet<PathName> = new Set(['login', 'register', 'forgotPassword', 'resetPassword', 'accountDeletion', 'alertOptOut', 'outbox']);

/** The route a pathname is, or null for an address the portal does not have. */
export function routeNameOf(pathname: string): PathName | null {
  return matchWebRoute(pathname)?.name ?? null;
}

/** A route only for logged-in users (an unauthenticated visitor is sent to `/`). */
export function isMemberPath(pathname: string): boolean {
  const name = routeNameOf(pathname);
  return name !== null && !publicNames.has(name);
}

/** The page title key for a pathname; unknown addresses are the not-found page. */
export function pageTitleKeyFor(pathname: string): string {
  const name = routeNameOf(pathname);
  return name ? pageTitleKeys[name] : 'PageNotFoundTitle';
}

/**
 * Where the login page sends a visitor back after logging in: the member page they asked for
 * (navigation state `{ returnTo }`, set when an unauthenticated visit of a member page was sent to
 * `/`), or null. Only a path of this portal's member area, never another site.
 */
export function returnPathOf(state: unknown): string | null {
  const value = typeof state === 'object' && state !== null && 'returnTo' in state ? (state as { returnTo: unknown }).returnTo : null;
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  const pathname = value.split(/[?#]/)[0] ?? '';
  return isMemberPath(pathname) ? value : null;
}
