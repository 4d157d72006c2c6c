/**
 * What each account feature requirement means over the account's flags, as cases: the shared
 * function's test (shared/features.test.ts) and the middleware's (functions/platform/features.test.ts)
 * both run them.
 */
import type { AccountFeatures, FeatureRequirement } from '../../shared/features';

export const NONE: AccountFeatures = { realtimeMap: false, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: false };
export const ALL: AccountFeatures = { realtimeMap: true, carBooking: true, rfid: true, safeReturnHome: true, basicOnly: false };

/** Requirement, the account's flags, whether the account meets it. */
export const featureCases: [FeatureRequirement, AccountFeatures, boolean][] = [
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
