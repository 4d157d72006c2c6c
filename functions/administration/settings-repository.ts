/**
 * The account's settings on its accounts item: the feature flags in `features` (which the
 * middleware reads on every request of a route that names a feature, functions/platform/http.ts,
 * and GET /user/settings answers the web menu from), and beside them the attributes the trip log
 * reads (functions/trips/account-settings.ts: `defaultPurposes`, `allowUserPurposes`,
 * `allowUserProjects`, `allowQrCheckInWithoutAccess`), `fuelPrice` with the dated `fuelPrices`
 * (the whole list per save; the reports read both), and `workingHours`. One
 * UpdateItem per save, so a change counts for the next request of anyone in the account.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { administrationMessageKeys as keys } from '../../shared/schemas/administration-messages';
import { DEFAULT_WORKING_HOURS, type AccountSettings, type AccountSettingsUpdate } from '../../shared/schemas/administration';
import { DEFAULT_ECO_WEIGHTS } from '../../shared/eco';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ForbiddenError, NotFoundError } from '../platform/errors';
import { getAccountFields } from '../domain/account/reads';
import { parseAccountFields, type AccountItem } from '../domain/account/schema';

const SETTINGS_FIELDS = [
  'features',
  'defaultPurposes',
  'allowUserPurposes',
  'allowUserProjects',
  'allowQrCheckInWithoutAccess',
  'fuelPrice',
  'fuelPrices',
  'ecoWeights',
  'workingHours',
  'smsCredits',
  'smsLowBalanceThreshold',
] as const;
type StoredSettings = Pick<AccountItem, (typeof SETTINGS_FIELDS)[number]>;

const DEFAULT_TIME_ZONE = 'Europe/Stockholm';

/** The stored item as the contract shows it; what is absent is the default (as the trip log reads it: users may add purposes and projects). */
export function settingsOf(item: Partial<StoredSettings>, caller: { isSupport: boolean }): AccountSettings {
  const f = item.features;
  const hours = item.workingHours;
  return {
    enable_rfid: f?.rfid === true,
    enable_car_booking: f?.carBooking === true,
    EnableSafeReturnHome: f?.safeReturnHome === true,
    realtimeMap: f?.realtimeMap === true,
    basicOnly: f?.basicOnly === true,
    basicOnlyEditable: caller.isSupport,
    allowUserPurposes: item.allowUserPurposes !== false,
    allowUserProjects: item.allowUserProjects !== false,
    allowQrCheckInWithoutAccess: item.allowQrCheckInWithoutAccess === true,
    fuelPrice: typeof item.fuelPrice === 'number' ? item.fuelPrice : null,
    fuelPrices: Array.isArray(item.fuelPrices) ? item.fuelPrices : [],
    ecoWeights: { ...DEFAULT_ECO_WEIGHTS, ...item.ecoWeights },
    defaultPurposes: Array.isArray(item.defaultPurposes) ? item.defaultPurposes : [],
    workingHours: hours
      ? { enabled: hours.enabled === true, days: [...hours.days], from: hours.from, to: hours.to, timeZone: hours.timeZone || DEFAULT_TIME_ZONE }
      : { ...DEFAULT_WORKING_HOURS, days: [...DEFAULT_WORKING_HOURS.days], timeZone: DEFAULT_TIME_ZONE },
    smsCredits: typeof item.smsCredits === 'number' ? item.smsCredits : 0,
    smsLowBalanceThreshold: typeof item.smsLowBalanceThreshold === 'number' ? item.smsLowBalanceThreshold : 0,
  };
}

export async function readSettings(accountId: string, caller: { isSupport: boolean }): Promise<AccountSettings> {
  const item = await getAccountFields(accountId, SETTINGS_FIELDS, { consistent: true });
  if (!item) throw new NotFoundError();
  return settingsOf(item, caller);
}

/** Contract names of the flags and where they live in `features` (AccountFeatures of shared/features.ts). */
const featureFields = {
  enable_rfid: 'rfid',
  enable_car_booking: 'carBooking',
  EnableSafeReturnHome: 'safeReturnHome',
  realtimeMap: 'realtimeMap',
  basicOnly: 'basicOnly',
} as const;
const accountFields = ['allowUserPurposes', 'allowUserProjects', 'allowQrCheckInWithoutAccess', 'fuelPrice', 'fuelPrices', 'defaultPurposes', 'smsLowBalanceThreshold', 'ecoWeights'] as const;

/**
 * Writes the fields sent. basicOnly is the subscription's: anyone but support may send it only
 * unchanged, which the write's condition checks (403 BasicOnlyIsSupportOnly otherwise).
 */
export async function writeSettings(
  accountId: string,
  update: AccountSettingsUpdate,
  caller: { isSupport: boolean },
  timeZone: string,
): Promise<AccountSettings> {
  const sets: string[] = [];
  // A threshold set re-arms the low-balance warning (functions/events/sms-credits.ts).
  const removes = update.smsLowBalanceThreshold === undefined ? [] : ['smsLowBalanceWarnedAt'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions = ['attribute_exists(accountId)'];
  for (const [field, feature] of Object.entries(featureFields) as [keyof typeof featureFields, string][]) {
    const value = update[field];
    if (value === undefined) continue;
    names[`#${feature}`] = feature;
    values[`:${feature}`] = value;
    if (field === 'basicOnly' && !caller.isSupport) {
      conditions.push('features.#basicOnly = :basicOnly');
      continue;
    }
    sets.push(`features.#${feature} = :${feature}`);
  }
  for (const field of accountFields) {
    const value = update[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  if (update.workingHours) {
    names['#workingHours'] = 'workingHours';
    values[':workingHours'] = { ...update.workingHours, days: [...new Set(update.workingHours.days)].sort(), timeZone };
    sets.push('#workingHours = :workingHours');
  }
  if (!sets.length) {
    const current = await readSettings(accountId, caller);
    if (update.basicOnly !== undefined && update.basicOnly !== current.basicOnly && !caller.isSupport) throw new ForbiddenError(keys.BasicOnlyIsSupportOnly);
    return current;
  }
  // `features` exists on every account (registration, the seed); an account without it takes none of its flags here.
  if (sets.some((s) => s.startsWith('features.'))) conditions.push('attribute_exists(features)');

  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: { accountId },
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: conditions.join(' AND '),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return settingsOf(parseAccountFields(out.Attributes ?? {}, SETTINGS_FIELDS), caller);
  } catch (error) {
    if (isConditionFailure(error) && update.basicOnly !== undefined && !caller.isSupport) throw new ForbiddenError(keys.BasicOnlyIsSupportOnly);
    throw error;
  }
}
