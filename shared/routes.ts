/**
 * The route manifest: every HTTP route, once. The CDK stack builds API Gateway routes and one
 * Lambda function per capability from it, the embedded runtime dispatches requests with it and the
 * OpenAPI document is generated from it. A handler lives in `functions/<capability>/<file>.ts` and
 * exports `handler`.
 */
import {
  alertOptOutRequestSchema,
  alertOptOutResponseSchema,
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  contactAddressesQuerySchema,
  contactAddressesSchema,
  forgotPasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  profileSchema,
  profileUpdateSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  resetPasswordRequestSchema,
  sessionUserResponseSchema,
  twoFactorGenerateRequestSchema,
  twoFactorVerifyRequestSchema,
} from './schemas/auth';
import { z } from 'zod';
import type { FeatureRequirement } from './features';
import {
  paymentTypesRequestSchema,
  paymentTypesSchema,
  registerAccountRequestSchema,
  registerAccountResponseSchema,
  validateEmailQuerySchema,
  validateImeiQuerySchema,
} from './schemas/registration';
import {
  imeiParamSchema,
  latestPositionSchema,
  liveConnectionSchema,
  mapConfigSchema,
  positionsQuerySchema,
  positionsSchema,
  realtimeUnitsSchema,
  reverseGeocodeQuerySchema,
  reverseGeocodeSchema,
} from './schemas/tracking';
import { commandListSchema, commandRequestSchema, commandSchema } from './schemas/commands';
import { unitListSchema } from './schemas/units';
import { announcementRequestSchema, announcementSchema, outboxMessageSchema, outboxQuerySchema, settingsSchema } from './schemas/system';
import {
  attestationIdParamSchema,
  attestationListSchema,
  attestationSchema,
  attestationStatusSchema,
  attestationsAdminQuerySchema,
  attestReminderRequestSchema,
  attestReminderSchema,
  attestRequestSchema,
  checkInCodeParamSchema,
  checkInCodeSchema,
  checkInUnitSchema,
  driverCheckInRequestSchema,
  driverCheckInSchema,
  driverListSchema,
  odometerEntryListSchema,
  odometerEntryParamsSchema,
  odometerEntryRequestSchema,
  odometerEntrySchema,
  tripIdParamSchema,
  tripListSchema,
  tripMergeSchema,
  tripRouteSchema,
  tripSchema,
  tripSplitSchema,
  tripsQuerySchema,
  tripUnitParamSchema,
  tripUpdateSchema,
} from './schemas/trips';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Who may call: anyone, a logged-in user, an account admin, support staff. */
export type Access = 'public' | 'member' | 'admin' | 'support';

export const capabilities = [
  'auth', 'registration', 'tracking', 'trips', 'geofences', 'places', 'alarms', 'bookings', 'safe-home',
  'units', 'administration', 'ingest', 'live', 'jobs', 'content', 'dev',
] as const;
export type Capability = (typeof capabilities)[number];

export interface RouteDef<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** API Gateway path syntax, `{name}` for a path parameter. */
  readonly path: string;
  readonly capability: Capability;
  /** Handler file name inside `functions/<capability>/`, without extension. */
  readonly file: string;
  readonly access: Access;
  /**
   * The account feature the route belongs to (shared/features.ts). The middleware answers 403 with
   * the feature's message key while the caller's account does not have it. Not on public routes.
   */
  readonly feature?: FeatureRequirement;
  readonly summary: string;
  readonly body?: B;
  readonly query?: Q;
  readonly params?: P;
  /** The `data` of a successful answer. */
  readonly response?: R;
  /** Served only by the embedded runtime, never deployed. */
  readonly embeddedOnly?: boolean;
}

function defineRoute<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(
  route: RouteDef<B, Q, P, R>,
): RouteDef<B, Q, P, R> {
  return route;
}

const nothing = z.null();

export const routes = {
  // Login, two-factor, session (capability auth)
  login: defineRoute({
    operationId: 'login',
    method: 'POST',
    path: '/api/v1/login',
    capability: 'auth',
    file: 'post-login',
    access: 'public',
    summary:
      'Logs in with username or e-mail: the user with its token, or a two-factor challenge unless a valid trust token is presented (trust_token or the trusted_browser cookie). 5 failures from one client block that client for 1 hour; 50 per hour from all clients block the name.',
    body: loginRequestSchema,
    response: loginResponseSchema,
  }),
  generateTwoFactorCode: defineRoute({
    operationId: 'generateTwoFactorCode',
    method: 'POST',
    path: '/api/v1/2fa/generate',
    capability: 'auth',
    file: 'post-2fa-generate',
    access: 'public',
    summary: 'E-mails a 6-digit login code (valid 10 minutes, 5 tries) for a pending two-factor challenge.',
    body: twoFactorGenerateRequestSchema,
    response: nothing,
  }),
  verifyTwoFactorCode: defineRoute({
    operationId: 'verifyTwoFactorCode',
    method: 'POST',
    path: '/api/v1/2fa/verify',
    capability: 'auth',
    file: 'post-2fa-verify',
    access: 'public',
    summary:
      'Checks the e-mailed code of a challenge; on success the user with its token. With trust_browser also trustToken, a secret (also set as the HttpOnly cookie trusted_browser) that skips the code at login for 180 days.',
    body: twoFactorVerifyRequestSchema,
    response: sessionUserResponseSchema,
  }),
  refreshToken: defineRoute({
    operationId: 'refreshToken',
    method: 'POST',
    path: '/api/v1/token/refresh',
    capability: 'auth',
    file: 'post-token-refresh',
    access: 'public',
    summary: 'A new access token for a refresh token, while its login session has not ended.',
    body: refreshRequestSchema,
    response: refreshResponseSchema,
  }),
  logout: defineRoute({
    operationId: 'logout',
    method: 'POST',
    path: '/api/v1/user/logout',
    capability: 'auth',
    file: 'post-logout',
    access: 'member',
    summary: 'Ends the login session of the token (and revokes the refresh token when given).',
    body: logoutRequestSchema,
    response: nothing,
  }),
  changePassword: defineRoute({
    operationId: 'changePassword',
    method: 'POST',
    path: '/api/v1/user/password',
    capability: 'auth',
    file: 'post-password',
    access: 'member',
    summary:
      "Sets the caller's own password after checking the current one ('User updated successfully.'): every other session and trusted browser of the user ends, and the caller continues with the new tokens answered.",
    body: changePasswordRequestSchema,
    response: changePasswordResponseSchema,
  }),
  getProfile: defineRoute({
    operationId: 'getProfile',
    method: 'GET',
    path: '/api/v1/user/profile',
    capability: 'auth',
    file: 'get-profile',
    access: 'member',
    summary: "The caller's own profile.",
    response: profileSchema,
  }),
  updateProfile: defineRoute({
    operationId: 'updateProfile',
    method: 'PUT',
    path: '/api/v1/user/profile',
    capability: 'auth',
    file: 'put-profile',
    access: 'member',
    summary: "Updates the caller's name, phone, language and two-factor login; turning two-factor login off needs current_password.",
    body: profileUpdateSchema,
    response: profileSchema,
  }),
  forgotPassword: defineRoute({
    operationId: 'forgotPassword',
    method: 'POST',
    path: '/api/v1/forgot-password',
    capability: 'auth',
    file: 'post-forgot-password',
    access: 'public',
    summary: 'E-mails a password reset link (valid 1 hour, single use).',
    body: forgotPasswordRequestSchema,
    response: nothing,
  }),
  resetPassword: defineRoute({
    operationId: 'resetPassword',
    method: 'POST',
    path: '/api/v1/reset-password',
    capability: 'auth',
    file: 'post-reset-password',
    access: 'public',
    summary: 'Sets a new password with the code of a reset link.',
    body: resetPasswordRequestSchema,
    response: nothing,
  }),
  alertOptOut: defineRoute({
    operationId: 'alertOptOut',
    method: 'POST',
    path: '/api/v1/alert-opt-out',
    capability: 'auth',
    file: 'post-alert-opt-out',
    access: 'public',
    summary: 'Stops alerts to a user (and push notifications when asked), confirmed with username and password.',
    body: alertOptOutRequestSchema,
    response: alertOptOutResponseSchema,
  }),
  getContactAddresses: defineRoute({
    operationId: 'getContactAddresses',
    method: 'GET',
    path: '/api/v1/contact-addresses',
    capability: 'content',
    file: 'get-contact-addresses',
    access: 'public',
    summary: "The brand's contact e-mail and phone (account deletion page).",
    query: contactAddressesQuerySchema,
    response: contactAddressesSchema,
  }),

  // Registration
  validateImei: defineRoute({
    operationId: 'validateImei',
    method: 'GET',
    path: '/api/v1/validate-imei',
    capability: 'registration',
    file: 'get-validate-imei',
    access: 'public',
    summary: 'Whether an IMEI can be registered: 15 digits, Luhn, in the inventory and not registered.',
    query: validateImeiQuerySchema,
    response: nothing,
  }),
  validateEmail: defineRoute({
    operationId: 'validateEmail',
    method: 'GET',
    path: '/api/v1/validate-email',
    capability: 'registration',
    file: 'get-validate-email',
    access: 'public',
    summary: 'Whether an e-mail address is valid and not yet used by any user.',
    query: validateEmailQuerySchema,
    response: nothing,
  }),
  getPaymentTypes: defineRoute({
    operationId: 'getPaymentTypes',
    method: 'POST',
    path: '/api/v1/subscription-payment-types',
    capability: 'registration',
    file: 'post-payment-types',
    access: 'public',
    summary: 'The payment methods offered to a private customer registering this IMEI.',
    body: paymentTypesRequestSchema,
    response: paymentTypesSchema,
  }),
  registerAccount: defineRoute({
    operationId: 'registerAccount',
    method: 'POST',
    path: '/api/v1/register-account',
    capability: 'registration',
    file: 'post-register-account',
    access: 'public',
    summary: 'Registers a customer: the account, its admin user and the unit, atomically.',
    body: registerAccountRequestSchema,
    response: registerAccountResponseSchema,
  }),

  getAnnouncement: defineRoute({
    operationId: 'getAnnouncement',
    method: 'POST',
    path: '/api/v1/announcement',
    capability: 'content',
    file: 'post-announcement',
    access: 'public',
    summary: 'The announcement bar text for a brand and language (null when there is none).',
    body: announcementRequestSchema,
    response: announcementSchema,
  }),
  // Real-time tracking and the live channel
  getRealtimeUnits: defineRoute({
    operationId: 'getRealtimeUnits',
    method: 'GET',
    path: '/api/v1/user/realtime/units',
    capability: 'tracking',
    file: 'get-realtime-units',
    access: 'member',
    feature: 'realtimeMap',
    summary: 'Every unit the caller may see, with its latest position and state.',
    response: realtimeUnitsSchema,
  }),
  getPositions: defineRoute({
    operationId: 'getPositions',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/positions',
    capability: 'tracking',
    file: 'get-positions',
    access: 'member',
    summary: "A unit's positions in time order over at most 30 days.",
    params: imeiParamSchema,
    query: positionsQuerySchema,
    response: positionsSchema,
  }),
  getLatestPosition: defineRoute({
    operationId: 'getLatestPosition',
    method: 'GET',
    path: '/api/v1/user/trackers/{imei}/latest-position',
    capability: 'tracking',
    file: 'get-latest-position',
    access: 'member',
    summary: "A unit's latest position, or null before its first.",
    params: imeiParamSchema,
    response: latestPositionSchema,
  }),
  reverseGeocode: defineRoute({
    operationId: 'reverseGeocode',
    method: 'GET',
    path: '/api/v1/user/geocode/reverse',
    capability: 'tracking',
    file: 'get-reverse-geocode',
    access: 'member',
    summary: 'The address nearest a coordinate (cached).',
    query: reverseGeocodeQuerySchema,
    response: reverseGeocodeSchema,
  }),
  getLiveConnection: defineRoute({
    operationId: 'getLiveConnection',
    method: 'GET',
    path: '/api/v1/user/live/connection',
    capability: 'live',
    file: 'get-live-connection',
    access: 'member',
    summary: 'How the browser opens the live channel (MQTT over WebSocket): url, client id, credentials and the topics it may subscribe to.',
    response: liveConnectionSchema,
  }),
  getMapConfig: defineRoute({
    operationId: 'getMapConfig',
    method: 'GET',
    path: '/api/v1/user/map/config',
    capability: 'tracking',
    file: 'get-map-config',
    access: 'member',
    summary:
      'The base maps: styleUrl (MAP_STYLE_URL, Amazon Location on AWS, or null) and styles, the street and satellite MapLibre styles offered in order (OpenFreeMap when none is configured); the web app falls back to its offline map when none can be reached.',
    response: mapConfigSchema,
  }),
  // Units and device commands
  getUnits: defineRoute({
    operationId: 'getUnits',
    method: 'GET',
    path: '/api/v1/user/units',
    capability: 'units',
    file: 'get-units',
    access: 'member',
    summary: 'The units list: every unit the caller may see (an ordinary user only the granted ones), with when each was last seen.',
    response: unitListSchema,
  }),
  postUnitCommand: defineRoute({
    operationId: 'postUnitCommand',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/commands',
    capability: 'units',
    file: 'post-unit-command',
    access: 'member',
    summary:
      'Sends a device command (DOUT on/off with duration and label, or an operating mode): saved pending, acknowledged when the tracker answers; it cancels the unacknowledged one. A DOUT command while another awaits its answer (under 120 s) gets 409 DoutAwaitingAnswer.',
    params: imeiParamSchema,
    body: commandRequestSchema,
    response: commandSchema,
  }),
  getUnitCommands: defineRoute({
    operationId: 'getUnitCommands',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/commands',
    capability: 'units',
    file: 'get-unit-commands',
    access: 'member',
    summary: "A unit's latest device commands with their states, newest first.",
    params: imeiParamSchema,
    response: commandListSchema,
  }),
  // The trip log (capability trips): every account has it, so no feature; docs/decisions/0015-trip-log.md
  getTrips: defineRoute({
    operationId: 'getTrips',
    method: 'GET',
    path: '/api/v1/user/trips',
    capability: 'trips',
    file: 'get-trips',
    access: 'member',
    summary:
      "A unit's trips that start in a period of local days (the TimeZone header's zone; at most 12 months: TripPeriodTooLong), in time order, with odometers corrected by the unit's odometer entries and totals per type.",
    query: tripsQuerySchema,
    response: tripListSchema,
  }),
  putTrip: defineRoute({
    operationId: 'putTrip',
    method: 'PUT',
    path: '/api/v1/user/trips/{id}',
    capability: 'trips',
    file: 'put-trip',
    access: 'member',
    summary:
      "Edits a trip's type, purpose, note, driver, passengers or project (any subset; null clears). Date, times and distance are never editable. An attested trip: 423 TripIsAttested; a driver who is not a user of the account: 422 InvalidDriver; a purpose or project of the user's own where the account allows none: 422 PurposeNotAllowed, ProjectNotAllowed.",
    params: tripIdParamSchema,
    body: tripUpdateSchema,
    response: tripSchema,
  }),
  mergeTrips: defineRoute({
    operationId: 'mergeTrips',
    method: 'POST',
    path: '/api/v1/user/trips/merge',
    capability: 'trips',
    file: 'post-trips-merge',
    access: 'member',
    summary:
      'Merges two trips of one unit and local day with the same driver and type, neither merged already, the second directly after the first (422 CannotMergeDifferentDates, CannotMergeDifferentDrivers, CannotMergePrivateWithBusiness, CannotMergeDifferentTypes, CannotMergeAlreadyMerged, NoTripBelow; 404 NoTripsFound; 423 TripIsAttested). A concurrent change of either trip: 409 CouldNotSplitOrMerge.',
    body: tripMergeSchema,
    response: tripSchema,
  }),
  splitTrip: defineRoute({
    operationId: 'splitTrip',
    method: 'POST',
    path: '/api/v1/user/trips/{id}/split',
    capability: 'trips',
    file: 'post-trip-split',
    access: 'member',
    summary: 'Undoes the merge of a merged trip and answers the two trips it joined (422 CouldNotSplitOrMerge for a trip that is not merged; 423 TripIsAttested).',
    params: tripIdParamSchema,
    response: tripSplitSchema,
  }),
  getTripRoute: defineRoute({
    operationId: 'getTripRoute',
    method: 'GET',
    path: '/api/v1/user/trips/{id}/route',
    capability: 'trips',
    file: 'get-trip-route',
    access: 'member',
    summary: "A trip's positions in time order. A private trip's route is not shown (422 RoutePrivateTrip, spec section 5).",
    params: tripIdParamSchema,
    response: tripRouteSchema,
  }),
  attestTrips: defineRoute({
    operationId: 'attestTrips',
    method: 'POST',
    path: '/api/v1/user/trips/attest',
    capability: 'trips',
    file: 'post-trips-attest',
    access: 'member',
    summary:
      "Attests a unit's trips that start in a period of local days (note at most 100: AttestNoteTooLong): they can no longer be edited, merged or split. No trip left to attest: 422 NothingToAttest.",
    body: attestRequestSchema,
    response: attestationSchema,
  }),
  getTripAttestations: defineRoute({
    operationId: 'getTripAttestations',
    method: 'GET',
    path: '/api/v1/user/trips/attestations',
    capability: 'trips',
    file: 'get-trip-attestations',
    access: 'member',
    summary: "A unit's attestations whose period overlaps a period of local days.",
    query: tripsQuerySchema,
    response: attestationListSchema,
  }),
  getOdometerEntries: defineRoute({
    operationId: 'getOdometerEntries',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/odometer-entries',
    capability: 'trips',
    file: 'get-odometer-entries',
    access: 'member',
    summary: "A unit's odometer entries, oldest first.",
    params: tripUnitParamSchema,
    response: odometerEntryListSchema,
  }),
  postOdometerEntry: defineRoute({
    operationId: 'postOdometerEntry',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/odometer-entries',
    capability: 'trips',
    file: 'post-odometer-entry',
    access: 'member',
    summary:
      "Records the vehicle's odometer (km) at a date and time (not in the future: OdometerEntryInFuture; 0 to 10 000 000: InvalidOdometer); the odometers of the trips from then on are counted from it.",
    params: tripUnitParamSchema,
    body: odometerEntryRequestSchema,
    response: odometerEntrySchema,
  }),
  deleteOdometerEntry: defineRoute({
    operationId: 'deleteOdometerEntry',
    method: 'DELETE',
    path: '/api/v1/user/units/{imei}/odometer-entries/{entryId}',
    capability: 'trips',
    file: 'delete-odometer-entry',
    access: 'member',
    summary: 'Deletes an odometer entry.',
    params: odometerEntryParamsSchema,
    response: nothing,
  }),
  driverCheckIn: defineRoute({
    operationId: 'driverCheckIn',
    method: 'POST',
    path: '/api/v1/user/driver-check-in',
    capability: 'trips',
    file: 'post-driver-check-in',
    access: 'member',
    summary:
      "Checks a driver in on a unit from `from` (default now; future: CheckInFuture; 'No driver': NoDriverNotAllowed), or with `qr` the caller on the unit of a QR code (InvalidQrCode; without access to the unit only where the account allows it, else 403 QrCheckInNotAllowed). The trips from then until the next check-in get the driver, except attested ones and ones whose driver a user set.",
    body: driverCheckInRequestSchema,
    response: driverCheckInSchema,
  }),
  getCheckInCode: defineRoute({
    operationId: 'getCheckInCode',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/check-in-code',
    capability: 'trips',
    file: 'get-check-in-code',
    access: 'member',
    summary: "The unit's QR check-in code and the address a phone opens with it (/user/check-in/{code}).",
    params: tripUnitParamSchema,
    response: checkInCodeSchema,
  }),
  getUnitDrivers: defineRoute({
    operationId: 'getUnitDrivers',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/drivers',
    capability: 'trips',
    file: 'get-unit-drivers',
    access: 'member',
    summary:
      "Who can be the unit's driver: the users of the unit's account (a trip or a check-in may name any of them), `[{ id, firstName, lastName }]` sorted by name.",
    params: tripUnitParamSchema,
    response: driverListSchema,
  }),
  getCheckInUnit: defineRoute({
    operationId: 'getCheckInUnit',
    method: 'GET',
    path: '/api/v1/user/check-in/{code}',
    capability: 'trips',
    file: 'get-check-in-unit',
    access: 'member',
    summary:
      "The unit a QR check-in code belongs to (imei, name, registrationNumber), for the check-in page; the same rules as checking in by the code: without access to the unit only where the account allows it (403 QrCheckInNotAllowed); a code that is none, or of another account's unit: 404 InvalidQrCode.",
    params: checkInCodeParamSchema,
    response: checkInUnitSchema,
  }),
  getAttestationStatus: defineRoute({
    operationId: 'getAttestationStatus',
    method: 'GET',
    path: '/api/v1/administration/attestations',
    capability: 'trips',
    file: 'get-attestations',
    access: 'admin',
    summary: "Per user of the account (or one, userId): the attestations overlapping a month (yyyy-MM), where the month stands (notAttested, attested, approved) and the last reminder.",
    query: attestationsAdminQuerySchema,
    response: attestationStatusSchema,
  }),
  approveAttestation: defineRoute({
    operationId: 'approveAttestation',
    method: 'POST',
    path: '/api/v1/administration/attestations/{id}/approve',
    capability: 'trips',
    file: 'post-attestation-approve',
    access: 'admin',
    summary: "Approves a user's attestation (its trips stay locked). An unlocked one: 422 AttestationIsUnlocked.",
    params: attestationIdParamSchema,
    response: attestationSchema,
  }),
  unlockAttestation: defineRoute({
    operationId: 'unlockAttestation',
    method: 'POST',
    path: '/api/v1/administration/attestations/{id}/unlock',
    capability: 'trips',
    file: 'post-attestation-unlock',
    access: 'admin',
    summary: 'Unlocks the period of an attestation: its trips are editable again; the attestation is kept as unlocked, with who unlocked it and when.',
    params: attestationIdParamSchema,
    response: attestationSchema,
  }),
  deleteAttestation: defineRoute({
    operationId: 'deleteAttestation',
    method: 'DELETE',
    path: '/api/v1/administration/attestations/{id}',
    capability: 'trips',
    file: 'delete-attestation',
    access: 'admin',
    summary: 'Removes an attestation: its trips are unlocked and the record deleted.',
    params: attestationIdParamSchema,
    response: nothing,
  }),
  remindAttestation: defineRoute({
    operationId: 'remindAttestation',
    method: 'POST',
    path: '/api/v1/administration/attestations/reminders',
    capability: 'trips',
    file: 'post-attestation-reminder',
    access: 'admin',
    summary:
      'E-mails a user of the account a reminder to attest a month, once per request: a repeat with the same requestId, or any within a minute, sends nothing more (sent: false).',
    body: attestReminderRequestSchema,
    response: attestReminderSchema,
  }),
  getSettings: defineRoute({
    operationId: 'getSettings',
    method: 'GET',
    path: '/api/v1/user/settings',
    capability: 'auth',
    file: 'get-settings',
    access: 'member',
    summary: "The caller's feature flags and roles, which drive the menu and route guards.",
    response: settingsSchema,
  }),
  getOutbox: defineRoute({
    operationId: 'getOutbox',
    method: 'GET',
    path: '/api/dev/outbox',
    capability: 'dev',
    file: 'get-outbox',
    access: 'public',
    summary: 'E-mail, SMS and push messages the embedded runtime sent, newest first.',
    query: outboxQuerySchema,
    embeddedOnly: true,
    response: outboxMessageSchema.array(),
  }),
} as const;

export type RouteKey = keyof typeof routes;
export const routeList: readonly RouteDef[] = Object.values(routes);

/** `GET /api/v1/user/settings`: the route key API Gateway puts in `event.routeKey`. */
export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

export function handlerPath(route: Pick<RouteDef, 'capability' | 'file'>): string {
  return `functions/${route.capability}/${route.file}.ts`;
}
