/** The sensors capability's routes (spread into the manifest, shared/routes.ts). */
import { imeiParamSchema } from '../schemas/tracking';
import { sensorCreateRequestSchema, sensorListSchema, sensorParamsSchema, sensorUpdateRequestSchema } from '../schemas/sensors';
import { defineRoute } from '../route-def';

const answer = "Answers the unit's sensors (`sensors`, oldest first: id, mac, name, kind, status pending or paired, thresholds, lastReading with its time, alarms, the pending pairing command, error) with `max` (4) and the tracker's `protocol`.";

export const sensorRoutes = {
  getSensors: defineRoute({
    operationId: 'getSensors',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/sensors',
    capability: 'sensors',
    file: 'get-sensors',
    access: 'member',
    summary: `A unit's BLE sensors (404 for a unit the caller cannot see). ${answer}`,
    params: imeiParamSchema,
    response: sensorListSchema,
  }),
  createSensor: defineRoute({
    operationId: 'createSensor',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/sensors',
    capability: 'sensors',
    file: 'post-sensor',
    access: 'member',
    summary: `Adds a BLE sensor and sends the pairing command (pairSensor { mac }); the sensor is paired once the tracker acknowledges (a Teltonika tracker's at once: its sensors are configured). 201. MAC: 12 hex digits whose 6th and 7th are 4 and 1 (errors.mac MacInvalid), not another unit's (MacInUse) nor this unit's (SensorAlreadyPaired); a 5th sensor: errors.sensors AllSensorSlotsTaken; name 1-30 (SensorNameRequired, SensorNameTooLong); kind temperature, humidity, door or tag (InvalidSensorKind); thresholds: temperature -20..60 (TemperatureOutOfRange), humidity 0..100 (HumidityOutOfRange), min below max (ThresholdMinAboveMax). ${answer}`,
    params: imeiParamSchema,
    body: sensorCreateRequestSchema,
    response: sensorListSchema,
  }),
  updateSensor: defineRoute({
    operationId: 'updateSensor',
    method: 'PUT',
    path: '/api/v1/user/units/{imei}/sensors/{id}',
    capability: 'sensors',
    file: 'put-sensor',
    access: 'member',
    summary: `Sets a sensor's name and thresholds (rules as on adding; 404 SensorNotRegistered). ${answer}`,
    params: sensorParamsSchema,
    body: sensorUpdateRequestSchema,
    response: sensorListSchema,
  }),
  pairSensor: defineRoute({
    operationId: 'pairSensor',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/sensors/{id}/pair',
    capability: 'sensors',
    file: 'post-sensor-pair',
    access: 'member',
    summary: `Sends a pending sensor's pairing command again (after CouldNotPair, no answer, or a later command that cancelled it); a paired sensor: 409 SensorPairedAlready. ${answer}`,
    params: sensorParamsSchema,
    response: sensorListSchema,
  }),
  deleteSensor: defineRoute({
    operationId: 'deleteSensor',
    method: 'DELETE',
    path: '/api/v1/user/units/{imei}/sensors/{id}',
    capability: 'sensors',
    file: 'delete-sensor',
    access: 'member',
    summary: `Unpairs a sensor: it is removed and its MAC freed at once, and the tracker gets unpairSensor { mac } (404 SensorNotRegistered). ${answer}`,
    params: sensorParamsSchema,
    response: sensorListSchema,
  }),
} as const;
