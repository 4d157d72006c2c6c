import { describe, expect, it } from 'vitest';
import { ALERT_NUMBERS_PARENT_ID } from '../../../shared/brands';
import { featureRequirements, meetsFeature, type FeatureRequirement } from '../../../shared/features';
import type { Settings } from '../../../shared/schemas/system';
import { accountFeaturesOf, canSeeAdministration, featureRedirect, hasAlertNumbersPage, landingRoute, menuItems } from './access';

const settings = (over: Partial<Settings> = {}): Settings => ({
  enable_rfid: false,
  enable_car_booking: false,
  EnableSafeReturnHome: false,
  realtime_map: true,
  basic_only: false,
  is_admin: false,
  is_support: false,
  ParentID: null,
  ...over,
});

const ids = (s: Settings) => menuItems(s).map((i) => i.id);

describe('landingRoute', () => {
  it('is the real-time map when the map is enabled', () => {
    expect(landingRoute(settings())).toBe('/user/realtime-tracking');
  });
  it('is the trip log when the real-time map is disabled', () => {
    expect(landingRoute(settings({ realtime_map: false }))).toBe('/user/create-triplog');
  });
  it('is the fleet overview for an admin who chose it, never for a user', () => {
    expect(landingRoute(settings({ is_admin: true, landing_page: 'fleetOverview' }))).toBe('/user/fleet-overview');
    expect(landingRoute(settings({ is_admin: false, landing_page: 'fleetOverview' }))).toBe('/user/realtime-tracking');
    expect(landingRoute(settings({ is_admin: true, landing_page: 'default' }))).toBe('/user/realtime-tracking');
  });
  it('defaults to the map while the settings are unknown', () => {
    expect(landingRoute(undefined)).toBe('/user/realtime-tracking');
  });
});

describe('menuItems', () => {
  it('shows the member items of an ordinary account', () => {
    expect(ids(settings())).toEqual(['fleetOverview', 'map', 'triplog', 'myTrips', 'reports', 'geofence', 'places', 'unit']);
  });
  it('hides Map when the real-time map is disabled', () => {
    expect(ids(settings({ realtime_map: false }))).not.toContain('map');
  });
  it('shows CarSchedule only with car booking', () => {
    expect(ids(settings({ enable_car_booking: true }))).toContain('carSchedule');
  });
  it('labels the trip log Log and hides Places and CarSchedule for basic-only accounts', () => {
    const items = menuItems(settings({ basic_only: true, enable_car_booking: true }));
    expect(items.find((i) => i.id === 'triplog')?.labelKey).toBe('Log');
    expect(items.map((i) => i.id)).not.toContain('places');
    expect(items.map((i) => i.id)).not.toContain('carSchedule');
  });
  it("shows Reports while the feature profile and the subscription leave the user a report", () => {
    expect(menuItems(settings()).find((i) => i.id === 'reports')).toEqual({ id: 'reports', labelKey: 'Reports', path: '/user/create-triplog/reports', section: 'main' });
    expect(ids(settings({ basic_only: true }))).toContain('reports');
    expect(ids(settings({ profile_reports: ['summary'] }))).toContain('reports');
    expect(ids(settings({ profile_reports: [] }))).not.toContain('reports');
    expect(ids(settings({ profile_reports: ['congestion'] }))).toContain('reports');
    expect(ids(settings({ basic_only: true, profile_reports: ['summary'] }))).not.toContain('reports');
  });
  it('labels the trip log Triplog otherwise', () => {
    expect(menuItems(settings()).find((i) => i.id === 'triplog')?.labelKey).toBe('Triplog');
  });
  it('shows no Administration section to non-admins', () => {
    expect(menuItems(settings({ enable_rfid: true, EnableSafeReturnHome: true })).filter((i) => i.section === 'administration')).toEqual([]);
  });
  it('shows the Administration section to admins, with SafeReturnHome and RFID only when enabled', () => {
    const admin = (s: Settings) => menuItems(s).filter((i) => i.section === 'administration').map((i) => i.id);
    expect(admin(settings({ is_admin: true }))).toEqual(['account', 'alarmReceiver', 'addUnit', 'attestStatus', 'webhooks', 'apiKeys']);
    expect(admin(settings({ is_admin: true, EnableSafeReturnHome: true, enable_rfid: true }))).toEqual([
      'account',
      'safeReturnHome',
      'alarmReceiver',
      'addUnit',
      'rfidCards',
      'attestStatus',
      'webhooks',
      'apiKeys',
    ]);
  });
  it('offers every admin the attest status of the trip log, also on a basic account without the map', () => {
    const attest = (s: Settings) => menuItems(s).find((i) => i.id === 'attestStatus');
    expect(attest(settings({ is_admin: true }))).toEqual({ id: 'attestStatus', labelKey: 'AttestStatus', path: '/administration/attest-status', section: 'administration' });
    expect(attest(settings({ is_admin: true, basic_only: true, realtime_map: false }))?.section).toBe('administration');
    expect(attest(settings())).toBeUndefined();
  });
  it('points every item at a route of spec section 2', () => {
    const all = menuItems(settings({ is_admin: true, EnableSafeReturnHome: true, enable_rfid: true, enable_car_booking: true }));
    expect(Object.fromEntries(all.map((i) => [i.id, i.path]))).toEqual({
      fleetOverview: '/user/fleet-overview',
      map: '/user/realtime-tracking',
      triplog: '/user/create-triplog',
      myTrips: '/user/my-trips',
      reports: '/user/create-triplog/reports',
      geofence: '/user/geofences',
      places: '/user/places',
      unit: '/user/edit-terminal-list',
      carSchedule: '/user/car-schedule',
      account: '/administration/user-accounts',
      safeReturnHome: '/administration/safe-return-home',
      alarmReceiver: '/administration/configure-alarm-receiver',
      addUnit: '/administration/add-terminal',
      rfidCards: '/administration/rfid-cards',
      attestStatus: '/administration/attest-status',
      webhooks: '/administration/webhooks',
      apiKeys: '/administration/api-keys',
    });
  });
  it('shows the support page to support staff only', () => {
    expect(menuItems(settings({ is_support: true })).find((i) => i.id === 'support')).toEqual({ id: 'support', labelKey: 'Support', path: '/support', section: 'main' });
    expect(menuItems(settings({ is_admin: true })).map((i) => i.id)).not.toContain('support');
    expect(menuItems(settings({ is_admin: true })).map((i) => i.id)).not.toContain('webVitals');
    expect(landingRoute(settings({ is_support: true }))).toBe('/support');
    // Their own account has no fleet: the support pages are all they see.
    expect(menuItems(settings({ is_support: true })).map((i) => i.id)).toEqual(['support', 'webVitals']);
    expect(menuItems(settings({ is_support: true, is_admin: true })).map((i) => i.id)).toContain('webVitals');
  });
  it("shows an ordinary user with a feature profile only its features' items, and lands without the map when it lacks it", () => {
    const limited = settings({ enable_car_booking: true, profile_features: ['tripLog', 'places'] });
    expect(menuItems(limited).map((i) => i.id)).toEqual(['fleetOverview', 'triplog', 'myTrips', 'reports', 'places', 'unit']);
    expect(landingRoute(limited)).toBe('/user/create-triplog');
    expect(featureRedirect('realtimeMap', limited)).toBe('/user/create-triplog');
    expect(menuItems(settings({ profile_features: null })).map((i) => i.id)).toContain('map');
  });
});

describe('featureRedirect', () => {
  it('sends car-schedule, rfid-cards and safe-return-home to the map when their feature is off', () => {
    expect(featureRedirect('carBooking', settings())).toBe('/user/realtime-tracking');
    expect(featureRedirect('rfid', settings())).toBe('/user/realtime-tracking');
    expect(featureRedirect('safeReturnHome', settings())).toBe('/user/realtime-tracking');
    expect(featureRedirect('realtimeMap', settings())).toBeNull();
    expect(featureRedirect('realtimeMap', settings({ realtime_map: false }))).toBe('/user/create-triplog');
  });
  it('lets them through when on', () => {
    const on = settings({ enable_car_booking: true, enable_rfid: true, EnableSafeReturnHome: true });
    expect(featureRedirect('carBooking', on)).toBeNull();
    expect(featureRedirect('rfid', on)).toBeNull();
    expect(featureRedirect('safeReturnHome', on)).toBeNull();
  });
  it('sends car-schedule of a basic-only account to the map, as the server refuses its routes (shared/features.ts)', () => {
    const basic = settings({ enable_car_booking: true, basic_only: true });
    expect(featureRedirect('carBooking', basic)).toBe('/user/realtime-tracking');
    expect(ids(basic)).not.toContain('carSchedule');
  });
});

describe('the menu and the server', () => {
  it('gate each feature with the same function', () => {
    const flags = { realtime_map: false, enable_car_booking: true, enable_rfid: false, EnableSafeReturnHome: true, basic_only: false };
    for (const feature of Object.keys(featureRequirements) as FeatureRequirement[]) {
      for (const basic_only of [false, true]) {
        const s = settings({ ...flags, basic_only });
        expect(featureRedirect(feature, s) === null, `${feature}, basic only ${basic_only}`).toBe(meetsFeature(accountFeaturesOf(s), feature));
      }
    }
  });
});

describe('featureRedirect: places (fullSubscription)', () => {
  it('sends a basic-only account to its landing route and lets the others through', () => {
    expect(featureRedirect('fullSubscription', settings())).toBeNull();
    expect(featureRedirect('fullSubscription', settings({ basic_only: true, realtime_map: true }))).toBe('/user/realtime-tracking');
    expect(featureRedirect('fullSubscription', settings({ basic_only: true, realtime_map: false }))).toBe('/user/create-triplog');
  });
});

describe('administration access', () => {
  it('needs the admin flag', () => {
    expect(canSeeAdministration(settings())).toBe(false);
    expect(canSeeAdministration(settings({ is_admin: true }))).toBe(true);
  });
  it('registers configure-alert-numbers only under the one parent account', () => {
    expect(hasAlertNumbersPage(ALERT_NUMBERS_PARENT_ID)).toBe(true);
    expect(hasAlertNumbersPage('another-account')).toBe(false);
    expect(hasAlertNumbersPage(null)).toBe(false);
  });
});
