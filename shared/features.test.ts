/**
 * What each account feature requirement means over the account's flags: one function, which the
 * middleware (functions/platform/http.ts) and the web menu (web/src/app/access.ts) both call.
 */
import { describe, expect, it } from 'vitest';
import { featureRequirements, meetsFeature, type AccountFeatures, type FeatureRequirement } from './features';
import { isMessageKey } from './i18n';

const NONE: AccountFeatures = { realtimeMap: false, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: false };
const ALL: AccountFeatures = { realtimeMap: true, carBooking: true, rfid: true, safeReturnHome: true, basicOnly: false };

/** Requirement, the account's flags, whether the account meets it. */
const cases: [FeatureRequirement, AccountFeatures, boolean][] = [
  ['realtimeMap', { ...NONE, realtimeMap: true }, true],
  ['realtimeMap', { ...ALL, realtimeMap: false }, false],
  ['carBooking', { ...NONE, carBooking: true }, true],
  ['carBooking', { ...ALL, carBooking: false }, false],
  // Car booking is not part of a basic-only subscription, even with its flag on.
  ['carBooking', { ...ALL, basicOnly: true }, false],
  ['rfid', { ...NONE, rfid: true }, true],
  ['rfid', { ...ALL, rfid: false }, false],
  ['safeReturnHome', { ...NONE, safeReturnHome: true }, true],
  ['safeReturnHome', { ...ALL, safeReturnHome: false }, false],
  ['fullSubscription', NONE, true],
  ['fullSubscription', { ...ALL, basicOnly: true }, false],
];

describe('meetsFeature', () => {
  it.each(cases)('%s with %j: %s', (requirement, features, meets) => {
    expect(meetsFeature(features, requirement)).toBe(meets);
  });

  it('lets an account without flags meet no requirement', () => {
    for (const requirement of Object.keys(featureRequirements) as FeatureRequirement[]) expect(meetsFeature(undefined, requirement)).toBe(false);
  });

  it('names a translated message key for each requirement', () => {
    expect(Object.values(featureRequirements).map((r) => r.deniedKey).filter((key) => !isMessageKey(key))).toEqual([]);
  });
});
