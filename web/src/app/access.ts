/**
 * Who sees what: the landing route, the sidebar items and the feature redirects of spec section 2,
 * as pure functions of the account settings (GET /api/v1/user/settings).
 */
import { ALERT_NUMBERS_PARENT_ID } from '../../../shared/brands';
import { meetsFeature, type AccountFeatures, type FeatureRequirement } from '../../../shared/features';
import type { ProfileFeature } from '../../../shared/schemas/organisation';
import type { Settings } from '../../../shared/schemas/system';
import { offeredReportKinds } from '../features/reports/offered-kinds';
import { paths } from './paths';

/** Where a logged-in user starts, and where a logged-in visitor of a public page is sent: support staff on the support page. */
export function landingRoute(
  settings: (Pick<Settings, 'realtime_map'> & Partial<Pick<Settings, 'is_support' | 'is_admin' | 'profile_features' | 'landing_page'>>) | null | undefined,
): string {
  if (settings?.is_support) return paths.support;
  // An admin may choose the fleet overview in the profile (the server answers 'default' for anyone else).
  if (settings?.is_admin && settings.landing_page === 'fleetOverview') return paths.fleetOverview;
  const noMap = settings && (!settings.realtime_map || (settings.profile_features && !settings.profile_features.includes('realtimeMap')));
  return noMap ? paths.createTriplog : paths.realtimeTracking;
}

export type MenuItemId =
  | 'fleetOverview'
  | 'map'
  | 'triplog'
  | 'myTrips'
  | 'reports'
  | 'geofence'
  | 'places'
  | 'unit'
  | 'carSchedule'
  | 'account'
  | 'safeReturnHome'
  | 'alarmReceiver'
  | 'addUnit'
  | 'rfidCards'
  | 'attestStatus'
  | 'apiKeys'
  | 'support'
  | 'webVitals'
  | 'webhooks';

export interface MenuItem {
  readonly id: MenuItemId;
  /** i18n key of the label. */
  readonly labelKey: string;
  readonly path: string;
  readonly section: 'main' | 'administration';
}

/**
 * The menu items a feature profile (GET /user/settings `profile_features`) covers: an ordinary user
 * with a profile sees only those of its features; the server refuses the rest (shared/feature-profiles.ts).
 */
const profileFeatureOfItem: Partial<Record<MenuItemId, ProfileFeature>> = {
  map: 'realtimeMap',
  triplog: 'tripLog',
  myTrips: 'tripLog',
  geofence: 'geofences',
  places: 'places',
  carSchedule: 'carBooking',
};

export function profileAllowsItem(id: MenuItemId, settings: Partial<Pick<Settings, 'profile_features'>>): boolean {
  const feature = profileFeatureOfItem[id];
  return !feature || !settings.profile_features || settings.profile_features.includes(feature);
}

/** The account's feature flags as the settings carry them, for `meetsFeature` (shared/features.ts), which the server checks too. */
export function accountFeaturesOf(
  settings: Pick<Settings, 'realtime_map' | 'enable_car_booking' | 'enable_rfid' | 'EnableSafeReturnHome' | 'basic_only'>,
): AccountFeatures {
  return {
    realtimeMap: settings.realtime_map,
    carBooking: settings.enable_car_booking,
    rfid: settings.enable_rfid,
    safeReturnHome: settings.EnableSafeReturnHome,
    basicOnly: settings.basic_only,
  };
}

/** The sidebar for these settings, in display order. */
export function menuItems(settings: Settings): MenuItem[] {
  const items: MenuItem[] = [];
  const main = (id: MenuItemId, labelKey: string, path: string) => {
    if (profileAllowsItem(id, settings)) items.push({ id, labelKey, path, section: 'main' });
  };
  const admin = (id: MenuItemId, labelKey: string, path: string) => items.push({ id, labelKey, path, section: 'administration' });

  // Support staff work on other accounts from the support page; their own account has no fleet.
  if (settings.is_support && !settings.is_admin) {
    main('support', 'Support', paths.support);
    main('webVitals', 'WebVitals', paths.supportWebVitals);
    return items;
  }
  const has = (feature: FeatureRequirement) => meetsFeature(accountFeaturesOf(settings), feature);
  main('fleetOverview', 'FleetOverview', paths.fleetOverview);
  if (has('realtimeMap')) main('map', 'Map', paths.realtimeTracking);
  main('triplog', settings.basic_only ? 'Log' : 'Triplog', paths.createTriplog);
  main('myTrips', 'MyTrips', paths.myTrips);
  // The reports the feature profile and the subscription leave the user (none: no menu item).
  if (offeredReportKinds(settings).length > 0) main('reports', 'Reports', paths.reports);
  main('geofence', 'Geofence', paths.geofences);
  if (has('fullSubscription')) main('places', 'Places', paths.places);
  main('unit', 'Unit', paths.editTerminalList);
  if (has('carBooking')) main('carSchedule', 'CarSchedule', paths.carSchedule);

  if (settings.is_admin) {
    admin('account', 'Account', paths.userAccounts);
    if (has('safeReturnHome')) admin('safeReturnHome', 'SafeReturnHome', paths.safeReturnHome);
    admin('alarmReceiver', 'AlarmReceiver', paths.alarmReceiver);
    admin('addUnit', 'AddUnit', paths.addTerminal);
    if (has('rfid')) admin('rfidCards', 'ManageRFIDCards', paths.rfidCards);
    // Every account has a trip log (no feature), so every admin sees where its attestations stand.
    admin('attestStatus', 'AttestStatus', paths.attestStatus);
    // Integrators' webhooks (docs/decisions/0046-webhooks.md).
    admin('webhooks', 'Webhooks', paths.webhooks);
    admin('apiKeys', 'ApiKeys', paths.apiKeys);
  }
  if (settings.is_support) {
    main('support', 'Support', paths.support);
    main('webVitals', 'WebVitals', paths.supportWebVitals);
  }
  return items;
}

/** `fullSubscription`: what basic-subscription-only accounts do not have (places; shared/features.ts). */
export type Feature = FeatureRequirement;

/** The account has the feature (as the server checks it) and a feature profile does not leave its page out. */
export function featureEnabled(feature: Feature, settings: Settings): boolean {
  if (!meetsFeature(accountFeaturesOf(settings), feature)) return false;
  if (feature === 'realtimeMap') return profileAllowsItem('map', settings);
  if (feature === 'carBooking') return profileAllowsItem('carSchedule', settings);
  return true;
}

/**
 * Car schedule, RFID cards and safe return home with the feature off all go to the map (spec section 2);
 * the map itself, when the account has none, goes to the landing route without it (the trip log), and
 * so do the pages a basic-only account does not have (places).
 */
export function featureRedirect(feature: Feature, settings: Settings): string | null {
  if (featureEnabled(feature, settings)) return null;
  return feature === 'realtimeMap' || feature === 'fullSubscription' ? landingRoute(settings) : paths.realtimeTracking;
}

/** `/administration/configure-alert-numbers` exists only for users under one specific parent account. */
export function hasAlertNumbersPage(parentId: string | null | undefined): boolean {
  return parentId === ALERT_NUMBERS_PARENT_ID;
}

/** The support page needs the support role; others see 'no access to support pages'. */
export function canSeeSupport(settings: Pick<Settings, 'is_support'>): boolean {
  return settings.is_support;
}

/** Administration pages need the admin flag; others see 'no access to administrator pages'. */
export function canSeeAdministration(settings: Pick<Settings, 'is_admin'>): boolean {
  return settings.is_admin;
}
