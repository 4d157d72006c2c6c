/**
 * The features and reports a feature profile can include (spec section 1;
 * shared/schemas/organisation.ts), apart so that the settings schema, which the login route
 * carries, brings nothing else of the organisation schemas with it.
 */
/** The server enforces these on their routes (shared/feature-profiles.ts). */
export const profileFeatures = ['realtimeMap', 'tripLog', 'geofences', 'places', 'carBooking', 'alarms'] as const;
export type ProfileFeature = (typeof profileFeatures)[number];
/** Stored and reported; enforced once reports exist. */
export const profileReports = ['tripLog', 'summary', 'largeSummary', 'benefitValue', 'ecoDriving', 'fuelConsumption', 'congestion', 'environmental', 'theft'] as const;
export type ProfileReport = (typeof profileReports)[number];
