import type { TrackingMessages } from './en';

/** Norwegian texts of the tracking feature: exactly the English keys (the type checks it). */
export const trackingNo: TrackingMessages = {
  HistoryPeriodTooLong: 'Historikken kan vise maks 30 dager. Velg en kortere periode.',
  InvalidDate: 'Oppgi en gyldig dato og et gyldig klokkeslett.',
  EndDateMustBeAfterStart: 'Slutt må være etter start.',
  InvalidCoordinates: 'Koordinatene er ikke gyldige.',
  PositionsTruncated:
    'Perioden har flere posisjoner enn det som kan vises samtidig. Bare de tidligste vises; velg en kortere periode for å se resten.',
  InvalidRealtimeView: 'Kartets visning av enhetene hentes med view=map.',
  InvalidPageLimit: 'Sidestørrelsen må være fra 1 til 5000.',
  InvalidSegments: 'Antall segmenter må være fra 2 til 16, og oppgis bare med den første siden.',
};
