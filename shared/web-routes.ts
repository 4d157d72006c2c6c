/**
 * The web app's browser routes (spec section 2), once. The web app routes by them
 * (web/src/app/paths.ts) and the web vitals endpoint accepts only these patterns as a route
 * (shared/schemas/web-vitals-batch.ts), never a concrete address.
 */
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
  // The driver's trips of the last 30 days, kept on the phone and edited offline.
  myTrips: '/user/my-trips',
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
  webhooks: '/administration/webhooks',
  apiKeys: '/administration/api-keys',
  // Departments, tags, projects and feature profiles, until the account page mounts their tabs.
  // Support staff only.
  support: '/support',
  // How fast the portal's pages are for their users (web vitals), support staff only.
  supportWebVitals: '/support/web-vitals',
  // The embedded runtime's sent messages, without login but to its own machine only (the route exists only there)
  outbox: '/dev/outbox',
} as const;

export type PathName = keyof typeof paths;

/** Routes with a path parameter, beside the plain ones above. */
export const paramRoutes: ReadonlyArray<{ pattern: string; name: PathName }> = [
  { pattern: `${paths.addEditGeofence}/:geofenceID`, name: 'addEditGeofence' },
  { pattern: `${paths.addEditPlace}/:placeID`, name: 'addEditPlace' },
  { pattern: `${paths.checkIn}/:code`, name: 'checkIn' },
];

/** What react-router shows for an address the portal does not have (the not-found page). */
export const UNKNOWN_ROUTE_PATTERN = '*';

function normalise(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

const byPath = new Map<string, PathName>(Object.entries(paths).map(([name, path]) => [path, name as PathName]));

/** The route an address is, with its pattern (`/user/check-in/:code`), or null for an address the portal does not have. */
export function matchWebRoute(pathname: string): { name: PathName; pattern: string } | null {
  const path = normalise(pathname);
  const exact = byPath.get(path);
  if (exact) return { name: exact, pattern: paths[exact] };
  for (const { pattern, name } of paramRoutes) {
    const prefix = pattern.slice(0, pattern.lastIndexOf('/') + 1);
    const rest = path.slice(prefix.length);
    if (path.startsWith(prefix) && rest.length > 0 && !rest.includes('/')) return { name, pattern };
  }
  return null;
}

/** The route pattern of an address (never its ids or query), `*` for one the portal does not have. */
export function routePatternOf(pathname: string): string {
  return matchWebRoute(pathname)?.pattern ?? UNKNOWN_ROUTE_PATTERN;
}

/** Every pattern `routePatternOf` can answer. */
export const webRoutePatterns: readonly string[] = [...new Set(Object.values(paths)), ...paramRoutes.map((r) => r.pattern), UNKNOWN_ROUTE_PATTERN];
