/**
 * Texts of lazily loaded features (shared/i18n/features/<name>): each language of each feature is
 * its own chunk, fetched with the feature's pages and merged into the one flat key space. A feature
 * loaded once is loaded again in the new language when the user switches language.
 */
import type { Language } from '../../../shared/schemas/common';

type Texts = Readonly<Record<string, string>>;

const loaders = {
  fleet: {
    en: () => import('../../../shared/i18n/features/fleet/en').then((m) => m.fleetEn),
    sv: () => import('../../../shared/i18n/features/fleet/sv').then((m) => m.fleetSv),
    no: () => import('../../../shared/i18n/features/fleet/no').then((m) => m.fleetNo),
  },
  account: {
    en: () => import('../../../shared/i18n/features/account/en').then((m) => m.accountEn),
    sv: () => import('../../../shared/i18n/features/account/sv').then((m) => m.accountSv),
    no: () => import('../../../shared/i18n/features/account/no').then((m) => m.accountNo),
  },
  registration: {
    en: () => import('../../../shared/i18n/features/registration/en').then((m) => m.registrationEn),
    sv: () => import('../../../shared/i18n/features/registration/sv').then((m) => m.registrationSv),
    no: () => import('../../../shared/i18n/features/registration/no').then((m) => m.registrationNo),
  },
  tracking: {
    en: () => import('../../../shared/i18n/features/tracking/en').then((m) => m.trackingEn),
    sv: () => import('../../../shared/i18n/features/tracking/sv').then((m) => m.trackingSv),
    no: () => import('../../../shared/i18n/features/tracking/no').then((m) => m.trackingNo),
  },
  commands: {
    en: () => import('../../../shared/i18n/features/commands/en').then((m) => m.commandsEn),
    sv: () => import('../../../shared/i18n/features/commands/sv').then((m) => m.commandsSv),
    no: () => import('../../../shared/i18n/features/commands/no').then((m) => m.commandsNo),
  },
  map: {
    en: () => import('../../../shared/i18n/features/map/en').then((m) => m.mapEn),
    sv: () => import('../../../shared/i18n/features/map/sv').then((m) => m.mapSv),
    no: () => import('../../../shared/i18n/features/map/no').then((m) => m.mapNo),
  },
  history: {
    en: () => import('../../../shared/i18n/features/history/en').then((m) => m.historyEn),
    sv: () => import('../../../shared/i18n/features/history/sv').then((m) => m.historySv),
    no: () => import('../../../shared/i18n/features/history/no').then((m) => m.historyNo),
  },
  units: {
    en: () => import('../../../shared/i18n/features/units/en').then((m) => m.unitsEn),
    sv: () => import('../../../shared/i18n/features/units/sv').then((m) => m.unitsSv),
    no: () => import('../../../shared/i18n/features/units/no').then((m) => m.unitsNo),
  },
  trips: {
    en: () => import('../../../shared/i18n/features/trips/en').then((m) => m.tripsEn),
    sv: () => import('../../../shared/i18n/features/trips/sv').then((m) => m.tripsSv),
    no: () => import('../../../shared/i18n/features/trips/no').then((m) => m.tripsNo),
  },
  geofences: {
    en: () => import('../../../shared/i18n/features/geofences/en').then((m) => m.geofencesEn),
    sv: () => import('../../../shared/i18n/features/geofences/sv').then((m) => m.geofencesSv),
    no: () => import('../../../shared/i18n/features/geofences/no').then((m) => m.geofencesNo),
  },
  places: {
    en: () => import('../../../shared/i18n/features/places/en').then((m) => m.placesEn),
    sv: () => import('../../../shared/i18n/features/places/sv').then((m) => m.placesSv),
    no: () => import('../../../shared/i18n/features/places/no').then((m) => m.placesNo),
  },
  alarms: {
    en: () => import('../../../shared/i18n/features/alarms/en').then((m) => m.alarmsEn),
    sv: () => import('../../../shared/i18n/features/alarms/sv').then((m) => m.alarmsSv),
    no: () => import('../../../shared/i18n/features/alarms/no').then((m) => m.alarmsNo),
  },
  events: {
    en: () => import('../../../shared/i18n/features/events/en').then((m) => m.eventsEn),
    sv: () => import('../../../shared/i18n/features/events/sv').then((m) => m.eventsSv),
    no: () => import('../../../shared/i18n/features/events/no').then((m) => m.eventsNo),
  },
  rfid: {
    en: () => import('../../../shared/i18n/features/rfid/en').then((m) => m.rfidEn),
    sv: () => import('../../../shared/i18n/features/rfid/sv').then((m) => m.rfidSv),
    no: () => import('../../../shared/i18n/features/rfid/no').then((m) => m.rfidNo),
  },
  'bulk-units': {
    en: () => import('../../../shared/i18n/features/bulk-units/en').then((m) => m.bulkUnitsEn),
    sv: () => import('../../../shared/i18n/features/bulk-units/sv').then((m) => m.bulkUnitsSv),
    no: () => import('../../../shared/i18n/features/bulk-units/no').then((m) => m.bulkUnitsNo),
  },
  'unit-editor': {
    en: () => import('../../../shared/i18n/features/unit-editor/en').then((m) => m.unitEditorEn),
    sv: () => import('../../../shared/i18n/features/unit-editor/sv').then((m) => m.unitEditorSv),
    no: () => import('../../../shared/i18n/features/unit-editor/no').then((m) => m.unitEditorNo),
  },
  'unit-lock': {
    en: () => import('../../../shared/i18n/features/unit-lock/en').then((m) => m.unitLockEn),
    sv: () => import('../../../shared/i18n/features/unit-lock/sv').then((m) => m.unitLockSv),
    no: () => import('../../../shared/i18n/features/unit-lock/no').then((m) => m.unitLockNo),
  },
  'unit-images': {
    en: () => import('../../../shared/i18n/features/unit-images/en').then((m) => m.unitImagesEn),
    sv: () => import('../../../shared/i18n/features/unit-images/sv').then((m) => m.unitImagesSv),
    no: () => import('../../../shared/i18n/features/unit-images/no').then((m) => m.unitImagesNo),
  },
  sensors: {
    en: () => import('../../../shared/i18n/features/sensors/en').then((m) => m.sensorsEn),
    sv: () => import('../../../shared/i18n/features/sensors/sv').then((m) => m.sensorsSv),
    no: () => import('../../../shared/i18n/features/sensors/no').then((m) => m.sensorsNo),
  },
  'user-accounts': {
    en: () => import('../../../shared/i18n/features/user-accounts/en').then((m) => m.userAccountsEn),
    sv: () => import('../../../shared/i18n/features/user-accounts/sv').then((m) => m.userAccountsSv),
    no: () => import('../../../shared/i18n/features/user-accounts/no').then((m) => m.userAccountsNo),
  },
  'safe-home': {
    en: () => import('../../../shared/i18n/features/safe-home/en').then((m) => m.safeHomeEn),
    sv: () => import('../../../shared/i18n/features/safe-home/sv').then((m) => m.safeHomeSv),
    no: () => import('../../../shared/i18n/features/safe-home/no').then((m) => m.safeHomeNo),
  },
  'car-schedule': {
    en: () => import('../../../shared/i18n/features/car-schedule/en').then((m) => m.carScheduleEn),
    sv: () => import('../../../shared/i18n/features/car-schedule/sv').then((m) => m.carScheduleSv),
    no: () => import('../../../shared/i18n/features/car-schedule/no').then((m) => m.carScheduleNo),
  },
  organisation: {
    en: () => import('../../../shared/i18n/features/organisation/en').then((m) => m.organisationEn),
    sv: () => import('../../../shared/i18n/features/organisation/sv').then((m) => m.organisationSv),
    no: () => import('../../../shared/i18n/features/organisation/no').then((m) => m.organisationNo),
  },
  reports: {
    en: () => import('../../../shared/i18n/features/reports/en').then((m) => m.reportsEn),
    sv: () => import('../../../shared/i18n/features/reports/sv').then((m) => m.reportsSv),
    no: () => import('../../../shared/i18n/features/reports/no').then((m) => m.reportsNo),
  },
  'report-jobs': {
    en: () => import('../../../shared/i18n/features/report-jobs/en').then((m) => m.reportJobsEn),
    sv: () => import('../../../shared/i18n/features/report-jobs/sv').then((m) => m.reportJobsSv),
    no: () => import('../../../shared/i18n/features/report-jobs/no').then((m) => m.reportJobsNo),
  },
  'reports-page': {
    en: () => import('../../../shared/i18n/features/reports-page/en').then((m) => m.reportsPageEn),
    sv: () => import('../../../shared/i18n/features/reports-page/sv').then((m) => m.reportsPageSv),
    no: () => import('../../../shared/i18n/features/reports-page/no').then((m) => m.reportsPageNo),
  },
  support: {
    en: () => import('../../../shared/i18n/features/support/en').then((m) => m.supportEn),
    sv: () => import('../../../shared/i18n/features/support/sv').then((m) => m.supportSv),
    no: () => import('../../../shared/i18n/features/support/no').then((m) => m.supportNo),
  },
  autoplan: {
    en: () => import('../../../shared/i18n/features/autoplan/en').then((m) => m.autoplanEn),
    sv: () => import('../../../shared/i18n/features/autoplan/sv').then((m) => m.autoplanSv),
    no: () => import('../../../shared/i18n/features/autoplan/no').then((m) => m.autoplanNo),
  },
  webhooks: {
    en: () => import('../../../shared/i18n/features/webhooks/en').then((m) => m.webhooksEn),
    sv: () => import('../../../shared/i18n/features/webhooks/sv').then((m) => m.webhooksSv),
    no: () => import('../../../shared/i18n/features/webhooks/no').then((m) => m.webhooksNo),
  },
  'my-trips': {
    en: () => import('../../../shared/i18n/features/my-trips/en').then((m) => m.myTripsEn),
    sv: () => import('../../../shared/i18n/features/my-trips/sv').then((m) => m.myTripsSv),
    no: () => import('../../../shared/i18n/features/my-trips/no').then((m) => m.myTripsNo),
  },
  push: {
    en: () => import('../../../shared/i18n/features/push/en').then((m) => m.pushEn),
    sv: () => import('../../../shared/i18n/features/push/sv').then((m) => m.pushSv),
    no: () => import('../../../shared/i18n/features/push/no').then((m) => m.pushNo),
  },
  'api-keys': {
    en: () => import('../../../shared/i18n/features/api-keys/en').then((m) => m.apiKeysEn),
    sv: () => import('../../../shared/i18n/features/api-keys/sv').then((m) => m.apiKeysSv),
    no: () => import('../../../shared/i18n/features/api-keys/no').then((m) => m.apiKeysNo),
  },
} as const satisfies Record<string, Record<Language, () => Promise<Texts>>>;

export type BrowserFeature = keyof typeof loaders;
export const browserFeatures = Object.keys(loaders) as BrowserFeature[];

export function loadFeatureTexts(feature: BrowserFeature, lang: Language): Promise<Texts> {
  return loaders[feature][lang]();
}
