/**
 * Everything behind the login, loaded lazily: TanStack Query, the account settings, the guards,
 * the main and bare layouts and their pages. Pages of later issues are the honest NotYetAvailable
 * state until then; the map (and its library) must be a lazy page of its own.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../ui/not-found-page';
import { NotYetAvailable } from '../ui/not-yet-available';
import { LandingRedirect as LandingRedirectInner, RequireAdmin, RequireAlertNumbersAccount, RequireFeature, RequireSupport, SettingsGate } from './guards';
import { BareLayout } from './layouts/bare-layout';
import { MainLayout } from './layouts/main-layout';
import { paths, type PathName } from './paths';
import { lazyFeature } from './lazy-feature';
import { queryClient } from './query-client';
import { getSessionUser } from './session';

/** Route paths are written relative to the gate's `*` route. */
const at = (name: PathName): string => paths[name].slice(1);

function page(name: PathName, path: string = at(name), element: ReactNode = <NotYetAvailable />) {
  return <Route key={path} path={path} element={element} />;
}

// unit-lock: the first-run panel, TrackerIsLocked and the output confirmation.
const RealtimePage = lazyFeature(['map', 'tracking', 'commands', 'history', 'events', 'unit-lock'], () =>
  import('../features/map/pages/realtime-page').then((m) => m.RealtimePage),
);
// The map opened directly (a returning user's landing page): its page, its texts, MapLibre and the
// first units are asked for now, while the settings (SettingsGate) load, not after them.
if (window.location.pathname === paths.realtimeTracking && getSessionUser()) {
  void RealtimePage.preload().catch(() => undefined);
  import('../features/map/early-load').then((m) => m.loadMapEarly(), () => undefined);
}
// bulk-units and commands: the bulk tasks of the list (operating modes are named by the commands texts).
const UnitsPage = lazyFeature(['units', 'unit-lock', 'bulk-units', 'commands'], () => import('../features/units/pages/units-page').then((m) => m.UnitsPage));
const RfidCardsPage = lazyFeature('rfid', () => import('../features/rfid/pages/rfid-cards-page').then((m) => m.RfidCardsPage));
// The IMEI keys are registration's, the vehicle types' names the units list's.
const AddUnitPage = lazyFeature(['unit-lock', 'registration', 'units'], () => import('../features/add-unit/pages/add-unit-page').then((m) => m.AddUnitPage));
// The unit editor shows the commands' DOUT and operating-mode controls and the add-unit texts' name keys (unit-lock).
const UnitEditorPage = lazyFeature(['unit-editor', 'commands', 'unit-lock', 'unit-images', 'sensors', 'units'], () =>
  import('../features/unit-editor/pages/unit-editor-route').then((m) => m.UnitEditorRoute),
);
// The trip log also shows keys of the period check (tracking: InvalidDate, EndDateMustBeAfterStart), the routes map's controls (map) and Autoplan's.
const TriplogPage = lazyFeature(['trips', 'tracking', 'map', 'autoplan'], () => import('../features/triplog/pages/triplog-page').then((m) => m.TriplogPage));
// The reports page names the kinds by the reports' titles and shows their refusals and the exports' (reports, report-jobs),
// and shows the trip types' names and the period keys of the trip log (trips, tracking).
const ReportsPage = lazyFeature(['reports-page', 'reports', 'report-jobs', 'trips', 'tracking', 'units'], () => import('../features/reports/pages/reports-page').then((m) => m.ReportsPage));
// My trips shows the trip log's type names and refusals (trips) beside its own texts.
const MyTripsPage = lazyFeature(['my-trips', 'trips'], () => import('../features/my-trips/pages/my-trips-page').then((m) => m.MyTripsPage));
const CheckInPage = lazyFeature(['trips', 'my-trips'], () => import('../features/triplog/pages/check-in-page').then((m) => m.CheckInPage));
const FleetOverviewPage = lazyFeature('fleet', () => import('../features/fleet/pages/fleet-overview-page').then((m) => m.FleetOverviewPage));
const AttestStatusPage = lazyFeature('trips', () => import('../features/triplog/pages/attest-status-page').then((m) => m.AttestStatusPage));
const GeofencesPage = lazyFeature(['geofences', 'map'], () => import('../features/geofences/pages/geofences-page').then((m) => m.GeofencesPage));
const GeofenceEditPage = lazyFeature(['geofences', 'map', 'units'], () => import('../features/geofences/pages/geofence-edit-page').then((m) => m.GeofenceEditPage));
const PlacesPage = lazyFeature(['places', 'geofences', 'map'], () => import('../features/places/pages/places-page').then((m) => m.PlacesPage));
const PlaceEditPage = lazyFeature(['places', 'geofences', 'map', 'units'], () => import('../features/places/pages/place-edit-page').then((m) => m.PlaceEditPage));
const ApiKeysPage = lazyFeature('api-keys', () => import('../features/api-keys/pages/api-keys-page').then((m) => m.ApiKeysPage));
const AlarmReceiversPage = lazyFeature(['alarms', 'units'], () => import('../features/alarms/pages/alarm-receivers-page').then((m) => m.AlarmReceiversPage));
const AlertNumbersPage = lazyFeature('alarms', () => import('../features/alarms/pages/alert-numbers-page').then((m) => m.AlertNumbersPage));
// The support page reuses the organisation module's action and close texts.
const SupportPage = lazyFeature(['support', 'organisation'], () => import('../features/support/pages/support-page').then((m) => m.SupportPage));
const WebVitalsPage = lazyFeature('support', () => import('../features/support/pages/web-vitals-page').then((m) => m.WebVitalsPage));
const AlertsPage = lazyFeature(['events', 'map', 'push'], () => import('../features/events/pages/alerts-page').then((m) => m.AlertsPage));
// The working-hours editor uses the geofences' weekday and time texts; the organisation tabs are
// mounted here too, and their pickers list units (the units texts).
const UserAccountsPage = lazyFeature(['user-accounts', 'geofences', 'organisation', 'units'], () => import('../features/user-accounts/pages/user-accounts-page').then((m) => m.UserAccountsPage));
// The home's map and address search are the geofences' (their texts and the radius keys).
const SafeHomePage = lazyFeature(['safe-home', 'geofences', 'map'], () => import('../features/safe-home/pages/safe-home-page').then((m) => m.SafeHomePage));
// Car booking shows EndDateMustBeAfterStart, which lives in the tracking texts.
const CarSchedulePage = lazyFeature(['car-schedule', 'tracking'], () => import('../features/car-schedule/pages/car-schedule-page').then((m) => m.CarSchedulePage));
const WebhooksPage = lazyFeature('webhooks', () => import('../features/webhooks/pages/webhooks-page').then((m) => m.WebhooksPage));

export function MemberArea() {
  // The service worker and the offline data's clean-up (web/src/pwa/start.ts), after the first render.
  useEffect(() => void import('../pwa/start').then((m) => m.startInstalledApp()), []);
  return (
    <QueryClientProvider client={queryClient}>
      <SettingsGate>
        <Routes>
          <Route element={<BareLayout />}>{page('alerts', at('alerts'), <AlertsPage />)}</Route>
          <Route element={<MainLayout />}>
            <Route element={<RequireFeature feature="realtimeMap" />}>{page('realtimeTracking', at('realtimeTracking'), <RealtimePage />)}</Route>
            {page('fleetOverview', at('fleetOverview'), <FleetOverviewPage />)}
            {page('createTriplog', at('createTriplog'), <TriplogPage />)}
            {page('congestionReport', at('congestionReport'), <ReportsPage kind="congestion" />)}
            {page('reports', at('reports'), <ReportsPage />)}
            {page('geofences', at('geofences'), <GeofencesPage />)}
            {page('addEditGeofence', at('addEditGeofence'), <GeofenceEditPage />)}
            {page('addEditGeofence', `${at('addEditGeofence')}/:geofenceID`, <GeofenceEditPage />)}
            <Route element={<RequireFeature feature="fullSubscription" />}>
              {page('places', at('places'), <PlacesPage />)}
              {page('addEditPlace', at('addEditPlace'), <PlaceEditPage />)}
              {page('addEditPlace', `${at('addEditPlace')}/:placeID`, <PlaceEditPage />)}
            </Route>
            {page('editTerminal', at('editTerminal'), <UnitEditorPage />)}
            {page('editTerminalList', at('editTerminalList'), <UnitsPage />)}
            <Route element={<RequireFeature feature="carBooking" />}>{page('carSchedule', at('carSchedule'), <CarSchedulePage />)}</Route>
            {page('myTrips', at('myTrips'), <MyTripsPage />)}
            {page('checkIn', at('checkIn'), <CheckInPage />)}
            {page('checkIn', `${at('checkIn')}/:code`, <CheckInPage />)}
            <Route element={<RequireAdmin />}>
              {page('userAccounts', at('userAccounts'), <UserAccountsPage />)}
              {page('addTerminal', at('addTerminal'), <AddUnitPage />)}
              <Route element={<RequireFeature feature="safeReturnHome" />}>{page('safeReturnHome', at('safeReturnHome'), <SafeHomePage />)}</Route>
              {page('alarmReceiver', at('alarmReceiver'), <AlarmReceiversPage />)}
              <Route element={<RequireFeature feature="rfid" />}>{page('rfidCards', at('rfidCards'), <RfidCardsPage />)}</Route>
              <Route element={<RequireAlertNumbersAccount />}>{page('alertNumbers', at('alertNumbers'), <AlertNumbersPage />)}</Route>
              {page('attestStatus', at('attestStatus'), <AttestStatusPage />)}
              {page('webhooks', at('webhooks'), <WebhooksPage />)}
              {page('apiKeys', at('apiKeys'), <ApiKeysPage />)}
            </Route>
            <Route element={<RequireSupport />}>
              {page('support', at('support'), <SupportPage />)}
              {page('supportWebVitals', at('supportWebVitals'), <WebVitalsPage />)}
            </Route>
            {/* Catch-all for /*, /user/* and /administration/* inside the shell. */}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </SettingsGate>
    </QueryClientProvider>
  );
}

/** A logged-in visitor of a public page: to the landing route once the settings say which. */
export function LandingRedirect() {
  return (
    <QueryClientProvider client={queryClient}>
      <LandingRedirectInner />
    </QueryClientProvider>
  );
}
