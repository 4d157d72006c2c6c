/**
 * The BLE sensor rules over the repository (docs/decisions/0020-ble-sensors.md): the caller's unit
 * (rule 1: another account's unit, or one not granted, is 404), adding with the MAC's claim and the
 * 4-sensor limit, pairing and unpairing through the device command service, and the view with the
 * last reading the ingest stage keeps on the unit.
 *
 * Pairing: a native tracker gets `pairSensor { mac }` (pending until its acknowledgement, like any
 * command: a later command cancels it, 120 s without an answer is the poor-coverage state). The
 * sensor is `paired` once the acknowledgement says ok; a refusal leaves it pending with
 * CouldNotPair, and it can be sent again. A Teltonika tracker takes its BLE sensors by
 * configuration (its sensor slots), not by a text command, so its sensors are paired at once.
 *
 * Unpairing deletes the sensor and frees its MAC at once, then sends `unpairSensor { mac }`: a
 * tracker that has not heard it yet may report the MAC again, and the reading is ignored since the
 * unit no longer has it.
 */
import type { z } from 'zod';
import type { Command } from '../../shared/schemas/commands';
import {
  SENSORS_PER_UNIT,
  sensorMessageKeys as keys,
  storedThresholds,
  type Sensor,
  type SensorList,
  type sensorCreateRequestSchema,
  type sensorUpdateRequestSchema,
} from '../../shared/schemas/sensors';
import type { AuthContext } from '../platform/auth-context';
import { ConflictError, NotFoundError } from '../platform/errors';
import type { Ports } from '../platform/ports';
import { getUnitItems } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import { getUnit } from '../tracking/unit-repository';
import { getCommandItem, type CommandItem } from '../units/command-repository';
import { sendCommand } from '../units/command-service';
import { parseSensorStageState, SENSOR_STAGE } from './stage-state';
import type { SensorMemory } from './readings';
import {
  addSensor,
  deleteSensor,
  getSensorItem,
  listSensorItems,
  markSensorPaired,
  setSensorCommand,
  updateSensor,
  type SensorItem,
} from './sensor-repository';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis'>;
type SensorPorts = Pick<Ports, 'devices' | 'live' | 'clock'>;

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

function readingView(m: SensorMemory | undefined): Sensor['lastReading'] {
  if (!m) return null;
  return { time: new Date(m.ts).toISOString(), temp: orNull(m.temp), hum: orNull(m.hum), door: orNull(m.door), bat: orNull(m.bat), batPct: orNull(m.batPct) };
}

export function sensorView(item: SensorItem, command: CommandItem | null, memory: SensorMemory | undefined): Sensor {
  const acknowledged = command?.status === 'acknowledged';
  const paired = item.status === 'paired' || acknowledged;
  const t = item.thresholds;
  return {
    id: item.id,
    mac: item.mac,
    name: item.name,
    kind: item.kind,
    status: paired ? 'paired' : 'pending',
    thresholds: {
      tempMin: orNull(t.tempMin),
      tempMax: orNull(t.tempMax),
      humMin: orNull(t.humMin),
      humMax: orNull(t.humMax),
      doorOpen: t.doorOpen === true,
      lowBattery: t.lowBattery === true,
    },
    lastReading: readingView(memory),
    alarms: memory?.al ?? [],
    command: !paired && command ? { id: command.commandId, status: command.status } : null,
    error: !paired && command?.status === 'failed' ? keys.CouldNotPair : null,
    createdAt: item.createdAt,
  };
}

/** The unit as the caller may see it, with its sensor copies (read strongly consistent). */
async function callersUnit(caller: Caller, imei: string): Promise<UnitItem> {
  await getUnit(caller, imei);
  const unit = (await getUnitItems([imei])).get(imei);
  if (!unit || unit instanceof Error || unit.accountId !== caller.accountId) throw new NotFoundError();
  return unit;
}

/** The unit's sensors, oldest first, each with its pairing state and last reading. */
export async function sensorList(unit: UnitItem): Promise<SensorList> {
  const items = await listSensorItems(unit.imei, unit.accountId);
  const readings = parseSensorStageState(unit.stages?.[SENSOR_STAGE])?.s ?? {};
  const commands = await Promise.all(
    items.map((item) => (item.status === 'pending' && item.commandId ? getCommandItem(unit.imei, item.commandId) : Promise.resolve(null))),
  );
  // An acknowledgement whose sensor update did not happen (the process died in between) is mended here.
  await Promise.all(items.map((item, i) => (item.status === 'pending' && commands[i]?.status === 'acknowledged' ? markSensorPaired(unit.imei, item.mac) : null)));
  const views = items.map((item, i) => ({ item, view: sensorView(item, commands[i] ?? null, readings[item.id]) }));
  views.sort((a, b) => a.item.createdAtMs - b.item.createdAtMs || a.item.id.localeCompare(b.item.id));
  return {
    sensors: views.map((v) => v.view),
    max: SENSORS_PER_UNIT,
    protocol: unit.protocol,
  };
}

export async function listSensors(caller: Caller, imei: string): Promise<SensorList> {
  return sensorList(await callersUnit(caller, imei));
}

async function sendPairing(unit: UnitItem, item: SensorItem, type: 'pairSensor' | 'unpairSensor', ports: SensorPorts): Promise<Command> {
  return sendCommand(unit, { type, params: { mac: item.mac } }, ports);
}

export async function createSensor(caller: Caller, imei: string, body: z.output<typeof sensorCreateRequestSchema>, ports: SensorPorts): Promise<SensorList> {
  const unit = await callersUnit(caller, imei);
  const native = unit.protocol === 'native';
  const item = await addSensor(
    unit,
    { mac: body.mac, name: body.name, kind: body.kind, thresholds: storedThresholds(body.thresholds), status: native ? 'pending' : 'paired' },
    ports.clock.now().getTime(),
  );
  if (native) {
    const command = await sendPairing(unit, item, 'pairSensor', ports);
    await setSensorCommand(item, command.id);
  }
  return listSensors(caller, imei);
}

export async function editSensor(caller: Caller, imei: string, id: string, body: z.output<typeof sensorUpdateRequestSchema>, now: number): Promise<SensorList> {
  const unit = await callersUnit(caller, imei);
  const item = await getSensorItem(imei, id, unit.accountId);
  await updateSensor(item, { name: body.name, thresholds: storedThresholds(body.thresholds) }, now);
  return listSensors(caller, imei);
}

/** Sends the pairing again (after a refusal, a time-out or a later command that cancelled it). */
export async function repairSensor(caller: Caller, imei: string, id: string, ports: SensorPorts): Promise<SensorList> {
  const unit = await callersUnit(caller, imei);
  const item = await getSensorItem(imei, id, unit.accountId);
  const last = item.commandId ? await getCommandItem(imei, item.commandId) : null;
  if (item.status === 'paired' || last?.status === 'acknowledged') throw new ConflictError(keys.SensorPairedAlready);
  const command = await sendPairing(unit, item, 'pairSensor', ports);
  await setSensorCommand(item, command.id);
  return listSensors(caller, imei);
}

export async function removeSensor(caller: Caller, imei: string, id: string, ports: SensorPorts): Promise<SensorList> {
  const unit = await callersUnit(caller, imei);
  const item = await getSensorItem(imei, id, unit.accountId);
  if (!(await deleteSensor(item))) throw new NotFoundError(keys.SensorNotRegistered);
  if (unit.protocol === 'native') await sendPairing(unit, item, 'unpairSensor', ports);
  return listSensors(caller, imei);
}
