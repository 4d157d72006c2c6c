import type { TrackingMessages } from './en';

/** Swedish texts of the tracking feature: exactly the English keys (the type checks it). */
export const trackingSv: TrackingMessages = {
  HistoryPeriodTooLong: 'Historiken kan visa högst 30 dagar. Välj en kortare period.',
  InvalidDate: 'Ange ett giltigt datum och klockslag.',
  EndDateMustBeAfterStart: 'Slutet måste vara efter starten.',
  InvalidCoordinates: 'Koordinaterna är inte giltiga.',
  PositionsTruncated:
    'Perioden har fler positioner än som kan visas på en gång. Bara de tidigaste visas; välj en kortare period för att se resten.',
  InvalidRealtimeView: 'Kartans vy av enheterna hämtas med view=map.',
  InvalidPageLimit: 'Sidstorleken måste vara 1 till 5000.',
  InvalidSegments: 'Antalet segment måste vara 2 till 16 och anges bara med den första sidan.',
};
