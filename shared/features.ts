/**
 * Account features a route can require (`RouteDef.feature` in shared/routes.ts). The HTTP
 * middleware reads the caller's account on every request of such a route and answers
 * `403 { success: false, message: deniedKey, errors: deniedKey }` when the account does not meet
 * the requirement. What each requirement means over the account's flags is defined once, in
 * `meetsFeature` (functions/platform/records.ts); the web menu (web/src/app/access.ts) hides the
 * same pages.
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
