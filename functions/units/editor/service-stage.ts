/**
 * Service intervals as an ingest stage (functions/ingest/transitions.ts): each batch's newest
 * counters (odometer, engine hours, device date) are compared with the unit's service intervals,
 * and an interval that reached a worse state than its cycle alarmed before raises one
 * `serviceDue` function alarm through the event engine's effect (functions/events/stage.ts
 * eventEffect). The marks of what was alarmed are this stage's state, stored with the unit's
 * transition conditionally on its revision, and each effect is claimed before it is sent: a
 * retried, redelivered or racing batch raises nothing twice (docs/decisions/0018-unit-editor.md).
 *
 * The counters are corrected by the latest odometer and operating-hours readings, whose copies the
 * unit carries from its `unit-copies` item (read with the unit, no read per position): the hours
 * always, the distance when the reading was kept with the tracker's odometer
 * (docs/decisions/0027-odometer-and-operating-hours.md).
 */
import { eventEffect } from '../../events/stage';
import type { Effect, IngestStage } from '../../ingest/transitions';
import { correctedEngineSeconds, correctedOdometerM } from './counter-readings';
import { serviceAlarms, type ServiceMarks } from './service-intervals';

export const SERVICE_STAGE = 'service';

/** The marks as stored: a map of strings (checked by hand: ingest reads it for every message). */
function isMarks(stored: unknown): stored is ServiceMarks {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return false;
  for (const mark of Object.values(stored)) if (typeof mark !== 'string') return false;
  return true;
}

export const serviceStage: IngestStage<ServiceMarks> = {
  name: SERVICE_STAGE,
  parse(stored) {
    return isMarks(stored) ? stored : undefined;
  },
  run({ unit, previous, after, positions }) {
    const intervals = unit.serviceIntervals ?? {};
    if (!Object.keys(intervals).length) return { state: undefined };
    if (!positions.length) return { state: previous };
    // As the editor reads them (unit-editor-service.ts readingsOf); without a reading, the raw counters.
    const odometerM = unit.odometerCorrection
      ? correctedOdometerM(unit.odometerCorrection, after.odometer === undefined ? null : { counterM: after.odometer, source: 'tracker' })
      : after.odometer;
    const engineSeconds = unit.hoursCorrection ? correctedEngineSeconds(unit.hoursCorrection, after.engineSeconds).seconds : after.engineSeconds;
    const { alarms, marks } = serviceAlarms(intervals, previous ?? {}, { odometerM, engineSeconds, ts: after.ts });
    const effects: Effect[] = alarms.map((a) =>
      eventEffect({
        type: 'serviceDue',
        ts: after.ts,
        key: `${a.intervalId}.${a.status.state}`,
        lat: after.lat,
        lon: after.lon,
        alarm: true,
        details: {
          service: a.name,
          state: a.status.state,
          dueAt: a.status.dueAt,
          remaining: a.status.remaining,
        },
      }),
    );
    return { state: marks, effects };
  },
};
