/** English texts of the tracking feature: the map, history and units (merged into the flat key space; see shared/i18n/index.ts). */
export const trackingEn = {
  HistoryPeriodTooLong: 'The history can show at most 30 days. Choose a shorter period.',
  InvalidDate: 'Enter a valid date and time.',
  EndDateMustBeAfterStart: 'The end must be after the start.',
  InvalidCoordinates: 'The coordinates are not valid.',
  PositionsTruncated:
    'This period has more positions than can be shown at once. Only the earliest are shown; choose a shorter period to see the rest.',
  InvalidRealtimeView: "The map's view of the units is asked for with view=map.",
  InvalidPageLimit: 'The page size must be from 1 to 5000.',
  InvalidSegments: 'The number of segments must be from 2 to 16, and is asked for with the first page only.',
} as const;

export type TrackingMessages = { readonly [K in keyof typeof trackingEn]: string };
