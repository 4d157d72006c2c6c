/**
 * All texts in all languages, and a dependency-free translator the server can use for e-mails and
 * SMS. The key space is flat; its texts live in modules:
 *
 * - the core (en.ts, sv.ts, no.ts): the shell, the login route and the API's generic message keys.
 *   The browser loads the core of one language before its first render;
 * - feature modules (features/<name>/{en,sv,no}.ts): loaded by the browser together with the
 *   feature's lazy pages (web/src/i18n/feature-messages.ts), so the login route does not carry the
 *   whole portal's texts. `email` holds texts only the server sends.
 *
 * A key lives in exactly one module (test/i18n/resources.test.ts checks it).
 */
import type { Language } from '../schemas/common';
import { en as coreEn, type MessageKey as CoreMessageKey, type Messages as CoreMessages } from './en';
import { accountEn } from './features/account/en';
import { accountNo } from './features/account/no';
import { accountSv } from './features/account/sv';
import { commandsEn } from './features/commands/en';
import { commandsNo } from './features/commands/no';
import { commandsSv } from './features/commands/sv';
import { mapEn } from './features/map/en';
import { mapNo } from './features/map/no';
import { mapSv } from './features/map/sv';
import { historyEn } from './features/history/en';
import { historyNo } from './features/history/no';
import { historySv } from './features/history/sv';
import { unitsEn } from './features/units/en';
import { unitsNo } from './features/units/no';
import { unitsSv } from './features/units/sv';
import { emailEn } from './features/email/en';
import { emailNo } from './features/email/no';
import { emailSv } from './features/email/sv';
import { registrationEn } from './features/registration/en';
import { registrationNo } from './features/registration/no';
import { registrationSv } from './features/registration/sv';
import { trackingEn } from './features/tracking/en';
import { trackingNo } from './features/tracking/no';
import { trackingSv } from './features/tracking/sv';
import { tripsEn } from './features/trips/en';
import { reportsEn } from './features/reports/en';
import { reportsNo } from './features/reports/no';
import { reportsSv } from './features/reports/sv';
import { tripsNo } from './features/trips/no';
import { tripsSv } from './features/trips/sv';
import { geofencesEn } from './features/geofences/en';
import { geofencesNo } from './features/geofences/no';
import { geofencesSv } from './features/geofences/sv';
import { placesEn } from './features/places/en';
import { placesNo } from './features/places/no';
import { placesSv } from './features/places/sv';
import { alarmsEn } from './features/alarms/en';
import { alarmsNo } from './features/alarms/no';
import { alarmsSv } from './features/alarms/sv';
import { eventsEn } from './features/events/en';
import { eventsNo } from './features/events/no';
import { eventsSv } from './features/events/sv';
import { unitEditorEn } from './features/unit-editor/en';
import { unitEditorNo } from './features/unit-editor/no';
import { unitEditorSv } from './features/unit-editor/sv';
import { unitLockEn } from './features/unit-lock/en';
import { unitLockNo } from './features/unit-lock/no';
import { unitLockSv } from './features/unit-lock/sv';
import { unitImagesEn } from './features/unit-images/en';
import { unitImagesNo } from './features/unit-images/no';
import { unitImagesSv } from './features/unit-images/sv';
import { rfidEn } from './features/rfid/en';
import { rfidNo } from './features/rfid/no';
import { rfidSv } from './features/rfid/sv';
import { bulkUnitsEn } from './features/bulk-units/en';
import { bulkUnitsNo } from './features/bulk-units/no';
import { bulkUnitsSv } from './features/bulk-units/sv';
import { sensorsEn } from './features/sensors/en';
import { sensorsNo } from './features/sensors/no';
import { sensorsSv } from './features/sensors/sv';
import { userAccountsEn } from './features/user-accounts/en';
import { userAccountsNo } from './features/user-accounts/no';
import { userAccountsSv } from './features/user-accounts/sv';
import { safeHomeEn } from './features/safe-home/en';
import { safeHomeNo } from './features/safe-home/no';
import { safeHomeSv } from './features/safe-home/sv';
import { carScheduleEn } from './features/car-schedule/en';
import { carScheduleNo } from './features/car-schedule/no';
import { carScheduleSv } from './features/car-schedule/sv';
import { organisationEn } from './features/organisation/en';
import { organisationNo } from './features/organisation/no';
import { organisationSv } from './features/organisation/sv';
import { supportEn } from './features/support/en';
import { supportNo } from './features/support/no';
import { supportSv } from './features/support/sv';
import { reportsPageEn } from './features/reports-page/en';
import { reportsPageNo } from './features/reports-page/no';
import { reportsPageSv } from './features/reports-page/sv';
import { fleetEn } from './features/fleet/en';
import { fleetNo } from './features/fleet/no';
import { fleetSv } from './features/fleet/sv';
import { reportExportsEn } from './features/report-exports/en';
import { reportExportsNo } from './features/report-exports/no';
import { reportExportsSv } from './features/report-exports/sv';
import { reportJobsEn } from './features/report-jobs/en';
import { reportJobsNo } from './features/report-jobs/no';
import { reportJobsSv } from './features/report-jobs/sv';
import { autoplanEn } from './features/autoplan/en';
import { autoplanNo } from './features/autoplan/no';
import { autoplanSv } from './features/autoplan/sv';
import { webhooksEn } from './features/webhooks/en';
import { webhooksNo } from './features/webhooks/no';
import { webhooksSv } from './features/webhooks/sv';
import { myTripsEn } from './features/my-trips/en';
import { myTripsNo } from './features/my-trips/no';
import { myTripsSv } from './features/my-trips/sv';
import { pushEn } from './features/push/en';
import { pushNo } from './features/push/no';
import { pushSv } from './features/push/sv';
import { apiKeysEn } from './features/api-keys/en';
import { apiKeysNo } from './features/api-keys/no';
import { apiKeysSv } from './features/api-keys/sv';
import { no as coreNo } from './no';
import { sv as coreSv } from './sv';

export type { CoreMessageKey, CoreMessages };

/** Every module's texts per language, by module name ('core' or a feature). */
export const modules = {
  core: { en: coreEn, sv: coreSv, no: coreNo },
  account: { en: accountEn, sv: accountSv, no: accountNo },
  registration: { en: registrationEn, sv: registrationSv, no: registrationNo },
  tracking: { en: trackingEn, sv: trackingSv, no: trackingNo },
  commands: { en: commandsEn, sv: commandsSv, no: commandsNo },
  map: { en: mapEn, sv: mapSv, no: mapNo },
  history: { en: historyEn, sv: historySv, no: historyNo },
  units: { en: unitsEn, sv: unitsSv, no: unitsNo },
  trips: { en: tripsEn, sv: tripsSv, no: tripsNo },
  geofences: { en: geofencesEn, sv: geofencesSv, no: geofencesNo },
  places: { en: placesEn, sv: placesSv, no: placesNo },
  alarms: { en: alarmsEn, sv: alarmsSv, no: alarmsNo },
  events: { en: eventsEn, sv: eventsSv, no: eventsNo },
  'unit-editor': { en: unitEditorEn, sv: unitEditorSv, no: unitEditorNo },
  'unit-lock': { en: unitLockEn, sv: unitLockSv, no: unitLockNo },
  'unit-images': { en: unitImagesEn, sv: unitImagesSv, no: unitImagesNo },
  rfid: { en: rfidEn, sv: rfidSv, no: rfidNo },
  'bulk-units': { en: bulkUnitsEn, sv: bulkUnitsSv, no: bulkUnitsNo },
  sensors: { en: sensorsEn, sv: sensorsSv, no: sensorsNo },
  email: { en: emailEn, sv: emailSv, no: emailNo },
  'user-accounts': { en: userAccountsEn, sv: userAccountsSv, no: userAccountsNo },
  'safe-home': { en: safeHomeEn, sv: safeHomeSv, no: safeHomeNo },
  'car-schedule': { en: carScheduleEn, sv: carScheduleSv, no: carScheduleNo },
  organisation: { en: organisationEn, sv: organisationSv, no: organisationNo },
  support: { en: supportEn, sv: supportSv, no: supportNo },
  fleet: { en: fleetEn, sv: fleetSv, no: fleetNo },
  reports: { en: reportsEn, sv: reportsSv, no: reportsNo },
  'report-exports': { en: reportExportsEn, sv: reportExportsSv, no: reportExportsNo },
  'report-jobs': { en: reportJobsEn, sv: reportJobsSv, no: reportJobsNo },
  'reports-page': { en: reportsPageEn, sv: reportsPageSv, no: reportsPageNo },
  autoplan: { en: autoplanEn, sv: autoplanSv, no: autoplanNo },
  webhooks: { en: webhooksEn, sv: webhooksSv, no: webhooksNo },
  'my-trips': { en: myTripsEn, sv: myTripsSv, no: myTripsNo },
  push: { en: pushEn, sv: pushSv, no: pushNo },
  'api-keys': { en: apiKeysEn, sv: apiKeysSv, no: apiKeysNo },
} as const satisfies Record<string, Record<Language, Readonly<Record<string, string>>>>;
export type ModuleName = keyof typeof modules;

const en = { ...coreEn, ...accountEn, ...registrationEn, ...trackingEn, ...commandsEn, ...mapEn, ...historyEn, ...unitsEn, ...tripsEn, ...geofencesEn, ...placesEn, ...alarmsEn, ...eventsEn, ...rfidEn, ...bulkUnitsEn, ...unitEditorEn, ...unitLockEn, ...unitImagesEn, ...sensorsEn, ...emailEn, ...userAccountsEn, ...safeHomeEn, ...carScheduleEn, ...organisationEn, ...supportEn, ...fleetEn, ...reportsEn, ...reportExportsEn, ...reportJobsEn, ...reportsPageEn, ...autoplanEn, ...webhooksEn, ...myTripsEn, ...pushEn, ...apiKeysEn } as const;
export type MessageKey = keyof typeof en;
export type Messages = { readonly [K in MessageKey]: string };

function merged(lang: Language): Messages {
  return Object.assign({}, ...Object.values(modules).map((m) => m[lang])) as Messages;
}

export const resources: Readonly<Record<Language, Messages>> = { en, sv: merged('sv'), no: merged('no') };

export const DEFAULT_LANGUAGE: Language = 'en';

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

/** `{{name}}` placeholders of a text, sorted and without duplicates. */
export function interpolationVariables(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)) names.add(match[1] as string);
  return [...names].sort();
}

/**
 * The text for `key` in `lang` with `{{name}}` replaced from `vars`. Falls back to English, then to
 * the key itself (a server-side log line is better than a crash; tests keep keys complete).
 */
export function translateKey(lang: Language, key: string, vars: Readonly<Record<string, string | number>> = {}): string {
  const table: Messages = resources[lang] ?? en;
  const text = isMessageKey(key) ? (table[key] || en[key]) : key;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole,
  );
}
