/**
 * Account features a route can require (`RouteDef.feature` in shared/routes.ts). The HTTP
 * middleware reads the caller's account on every request of such a route and answers
 * `403 { success: false, message: deniedKey, errors: deniedKey }` when the account does not meet
 * the requirement. What each requirement means over the account's flags is defined once, in
 * `meetsFeature` below: the middleware (functions/platform/http.ts) checks it, and the web menu and
 * its redirects (web/src/app/access.ts) hide the same pages with it.
 */
import type { MessageKey } from './i18n';

export const featureRequirements = {
  realtimeMap: { deniedKey: 'RealtimeMapNotIncluded', description: 'the real-time map' },
  carBooking: { deniedKey: 'CarBookingNotIncluded', description: 'car booking, on a subscription that is not basic-only' },
  rfid: { deniedKey: 'RfidNotIncluded', description: 'RFID cards' },
  safeReturnHome: { deniedKey: 'SafeReturnHomeNotIncluded', description: 'safe return home' },
  /** What a basic-subscription-only account may not use (places, for example). */
  fullSubscription: { deniedKey: 'NotIncludedInBasicSubscription', description: 'a subscription that is not basic-only' },
} as const satisfies Record<string, { readonly deniedKey: MessageKey; readonly description: string }>;

export type FeatureRequirement = keyof typeof featureRequirements;

/** An account's feature flags (the account item's `features`). */
export interface AccountFeatures {
  realtimeMap: boolean;
  carBooking: boolean;
  rfid: boolean;
  safeReturnHome: boolean;
  basicOnly: boolean;
}

/** What each requirement means over the flags. Car booking also needs a subscription that is not basic-only. */
const featureRules: { readonly [F in FeatureRequirement]: (features: AccountFeatures) => boolean } = {
  realtimeMap: (f) => f.realtimeMap,
  carBooking: (f) => f.carBooking && !f.basicOnly,
  rfid: (f) => f.rfid,
  safeReturnHome: (f) => f.safeReturnHome,
  fullSubscription: (f) => !f.basicOnly,
};

/** Whether an account's flags meet a feature requirement; an account without flags meets none. */
export function meetsFeature(features: AccountFeatures | undefined, requirement: FeatureRequirement): boolean {
  return features !== undefined && featureRules[requirement](features);
}
