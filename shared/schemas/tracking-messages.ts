/**
 * Message keys of the tracking read API and the live channel. The server answers with these keys and
 * the browser translates them (a tracking text module in every language must hold each of them).
 */
export const trackingMessageKeys = {
  /** A unit that does not exist, belongs to another account or was not granted to the caller. */
  NotFound: 'NotFound',
  InvalidImei: 'InvalidImei',
  /** The history view spans at most 30 days (spec sections 5 and 9). */
  HistoryPeriodTooLong: 'HistoryPeriodTooLong',
  InvalidDate: 'InvalidDate',
  EndDateMustBeAfterStart: 'EndDateMustBeAfterStart',
  InvalidCoordinates: 'InvalidCoordinates',
  /** Beside a positions answer cut at POSITIONS_MAX_POINTS: the browser suggests a shorter period. */
  PositionsTruncated: 'PositionsTruncated',
  /** A realtime units query: `view` other than `map`, or `limit`/`cursor` without `view=map`. */
  InvalidRealtimeView: 'InvalidRealtimeView',
  /** A page size outside 1..REALTIME_PAGE_MAX. */
  InvalidPageLimit: 'InvalidPageLimit',
  /** A number of segments outside 2..REALTIME_SEGMENTS_MAX, or segments with a cursor. */
  InvalidSegments: 'InvalidSegments',
  /** A cursor that is not one this caller was handed (changed, cut, or another user's). */
  InvalidCursor: 'InvalidCursor',
} as const;

export type TrackingMessageKey = (typeof trackingMessageKeys)[keyof typeof trackingMessageKeys];
