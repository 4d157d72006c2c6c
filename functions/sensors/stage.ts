/**
 * BLE sensors as an ingest stage (functions/ingest/transitions.ts): each batch's positions update
 * the unit's sensors' last readings and alarm states (readings.ts), kept as the stage's state on
 * the units item (`stages.sensors`). The sensors' copies come with the unit from the same
 * BatchGetItem (unit-copies `sensors`), so the stage costs ingest no call of its own, and its
 * state is written with the transition the batch writes anyway: no write per reading.
 *
 * A threshold crossed becomes one `sensorAlarm` event (a function alarm) through the event
 * engine's effect (functions/events/stage.ts `eventEffect`): decided with the transition, stored
 * once, claimed before it is sent, so a redelivered or retried batch raises nothing again. The
 * event's key is the sensor and the alarm kind, its time the reading's device time.
 */
import { eventEffect } from '../events/stage';
import type { IngestStage } from '../ingest/transitions';
import { runSensors, type RaisedSensorAlarm, type SensorStageState } from './readings';
import { parseSensorStageState, SENSOR_STAGE } from './stage-state';

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The value the alarm's text shows: "9.2 °C (max 8 °C)", "85 % (max 80 %)", "2.5 V"; empty for a door. */
export function readingText(a: Pick<RaisedSensorAlarm, 'kind' | 'value' | 'limit'>): string {
  if (a.value === null) return '';
  const unit = a.kind === 'tempHigh' || a.kind === 'tempLow' ? '°C' : a.kind === 'lowBattery' && a.limit !== null && a.limit < 10 ? 'V' : '%';
  const bound = a.kind === 'tempHigh' || a.kind === 'humHigh' ? 'max' : 'min';
  const value = `${round1(a.value)} ${unit}`;
  return a.limit === null ? value : `${value} (${bound} ${round1(a.limit)} ${unit})`;
}

export const sensorStage: IngestStage<SensorStageState> = {
  name: SENSOR_STAGE,
  parse: parseSensorStageState,
  run({ unit, previous, positions }) {
    // Most units have no sensors: nothing to read, nothing to keep.
    if (!unit.sensors) return { state: undefined };
    if (!positions.length) return { state: previous };
    const { state, alarms } = runSensors(unit.sensors, previous, positions);
    return {
      state,
      effects: alarms.map((a) =>
        eventEffect({
          type: 'sensorAlarm',
          ts: a.ts,
          key: `${a.sensorId}:${a.kind}`,
          lat: a.lat,
          lon: a.lon,
          alarm: true,
          details: { sensor: a.sensor.name, sensorId: a.sensorId, mac: a.sensor.mac, alarm: a.kind, reading: readingText(a), value: a.value, limit: a.limit },
        }),
      ),
    };
  },
};
