/** Every browser route of spec section 2, once. */
export const paths = {
  // Public
  login: '/',
  register: '/user/register',
  forgotPassword: '/user/forgot-password',
  resetPassword: '/user/reset-password',
  accountDeletion: '/account/deletion',
  alertOptOut: '/user/alert-opt-out',
  // Logged in, bare layout
  alerts: '/user/alerts',
  // Logged in, main layout
  realtimeTracking: '/user/realtime-tracking',
  fleetOverview: '/user/fleet-overview',
  createTriplog: '/user/create-triplog',
  congestionReport: '/user/create-triplog/congestionreportnew',
  reports: '/user/create-triplog/reports',
  geofences: '/user/geofences',
  addEditGeofence: '/user/geofences/add-edit-geofences',
  places: '/user/places',
  addEditPlace: '/user/places/add-edit-places',
  editTerminal: '/user/edit-terminal',
  editTerminalList: '/user/edit-terminal-list',
  carSchedule: '/user/car-schedule',
  // Where a driver's phone lands from a unit's QR sticker: /user/check-in/{code}
  checkIn: '/user/check-in',
  // Administration
  userAccounts: '/administration/user-accounts',
  addTerminal: '/administration/add-terminal',
  safeReturnHome: '/administration/safe-return-home',
  alarmReceiver: '/administration/configure-alarm-receiver',
  rfidCards: '/administration/rfid-cards',
  alertNumbers: '/administration/configure-alert-numbers',
  attestStatus: '/administration/attest-status',
  // Departments, tags, projects and feature profiles, until the account page mounts their tabs.
  // Support staff only.
  support: '/support',
  // The embedded runtime's sent messages, without login but to its own machine only (the route exists only there)
  outbox: '/dev/outbox',
} as const;

export type PathName = keyof typeof paths;

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
  checkIn: 'DriverCheckIn',
  userAccounts: 'Account',
  addTerminal: 'AddUnit',
  safeReturnHome: 'SafeReturnHome',
  alarmReceiver: 'AlarmReceiver',
  rfidCards: 'ManageRFIDCards',
  alertNumbers: 'AlertNumbers',
  attestStatus: 'AttestStatus',
  support: 'Support',
};

/** Routes with a path parameter, beside the plain ones above. */
export const paramRoutes: ReadonlyArray<{ pattern: string; name: PathName }> = [
  { pattern: `${paths.addEditGeofence}/:geofenceID`, name: 'addEditGeofence' },
  { pattern: `${paths.addEditPlace}/:placeID`, name: 'addEditPlace' },
  { pattern: `${paths.checkIn}/:code`, name: 'checkIn' },
];

const publicNames: ReadonlySet<PathName> = new Set(['login', 'register', 'forgotPassword', 'resetPassword', 'accountDeletion', 'alertOptOut', 'outbox']);
const byPath = new Map<string, PathName>(Object.entries(paths).map(([name, path]) => [path, name as PathName]));

function normalise(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** The route a pathname is, or null for an address the portal does not have. */
export function routeNameOf(pathname: string): PathName | null {
  const path = normalise(pathname);
  const exact = byPath.get(path);
  if (exact) return exact;
  for (const { pattern, name } of paramRoutes) {
    const prefix = pattern.slice(0, pattern.lastIndexOf('/') + 1);
    const rest = path.slice(prefix.length);
    if (path.startsWith(prefix) && rest.length > 0 && !rest.includes('/')) return name;
  }
  return null;
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
