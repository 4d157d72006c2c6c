/**
 * The alarm receiver rules (spec sections 2, 3, 5 and 6): the form's field rules, the subsite's
 * phone rule, the linked user and their push id, the units a receiver gets alarms of, and the
 * views the screen shows. Every read and write is within the caller's account (rule 1): another
 * account's receiver is answered as a missing one.
 */
import { type z } from 'zod';
import {
  alarmReceiverFieldErrors,
  DEFAULT_PHONE_DIAL_CODE,
  type alarmReceiverSaveSchema,
  type assignUnitsRequestSchema,
  type AlarmReceiver,
  type AlarmReceiverUnits,
} from '../../shared/schemas/alarms';
import { alarmMessageKeys as keys } from '../../shared/schemas/alarms-messages';
import { formatMac } from '../../shared/schemas/sensors';
import { parsePhone } from '../../shared/validators/phone';
import type { AuthContext } from '../platform/auth-context';
import { NotFoundError, ValidationError } from '../platform/errors';
import { accountMember, accountMembers, accountSensors, accountUnit, accountUnits, type Member } from './account-data';
import {
  createReceiver,
  getReceiver,
  setReceiverFields,
  updateReceiver,
  type AlarmReceiverRecord,
  type ReceiverFields,
} from './receiver-repository';

type Caller = Pick<AuthContext, 'accountId' | 'subsiteId'>;
type SaveBody = z.output<typeof alarmReceiverSaveSchema>;

const bit = (v: boolean): 0 | 1 => (v ? 1 : 0);

/**
 * The phone as the contract shows it: calling code and national number. Stored as E.164; an older
 * item may hold '+46-701234567', '0701234567' or '46701234567', read in its dial code's country.
 */
function phoneView(record: AlarmReceiverRecord): Pick<AlarmReceiver, 'country_code' | 'phone'> {
  if (!record.phone) return { country_code: null, phone: null };
  const parsed = parsePhone(record.phone, record.countryCode ?? DEFAULT_PHONE_DIAL_CODE, 'any');
  if (parsed) return { country_code: parsed.callingCode, phone: parsed.nationalNumber };
  return { country_code: record.countryCode, phone: record.phone.replace(/\D/g, '') };
}

export function receiverView(record: AlarmReceiverRecord, pushIds: ReadonlyMap<string, boolean>): AlarmReceiver {
  return {
    id: record.id,
    name: record.name,
    email: record.email,
    ...phoneView(record),
    push_notification: bit(record.pushNotification),
    security_alarm: bit(record.securityAlarm),
    function_alarm: bit(record.functionAlarm),
    member_id: record.memberId,
    has_push_id: record.memberId !== null && pushIds.get(record.memberId) === true,
    total_units: record.gpsImeis.length,
    total_ble_units: record.bleIds.length,
  };
}

/** Whether each user of the account has a push id (a subscribed browser or a OneSignal id). */
export async function pushIdsOf(accountId: string): Promise<Map<string, boolean>> {
  return new Map((await accountMembers(accountId)).map((m) => [m.userId, m.hasPush]));
}

/** Creates or edits a receiver; answers its id. */
export async function saveReceiver(caller: Caller, body: SaveBody, now: Date): Promise<AlarmReceiverRecord> {
  const errors = alarmReceiverFieldErrors(body, caller.subsiteId);
  const prev = body.id === undefined ? null : await getReceiver(caller.accountId, body.id);

  let member: Member | null = null;
  // An edit that leaves member_id out keeps the link.
  const memberId = body.member_id === undefined ? (prev?.memberId ?? null) : body.member_id;
  if (memberId !== null && memberId !== '' && memberId !== '0') {
    member = await accountMember(caller.accountId, memberId);
    if (!member) errors['member_id'] = [keys.InvalidMember];
  }
  const push = body.push_notification ?? prev?.pushNotification ?? false;
  // Push only for a receiver linked to a user who has a push id (spec section 5).
  if (push && !member?.hasPush) errors['push_notification'] = [keys.PushNotAvailable];

  let gpsImeis = prev?.gpsImeis ?? [];
  let bleIds = prev?.bleIds ?? [];
  if (body.terminal_id !== undefined) {
    if ((body.device_type ?? 'gps') === 'ble') {
      const sensor = (await accountSensors(caller.accountId)).find((s) => s.id === body.terminal_id);
      if (!sensor) errors['terminal_id'] = [keys.UnitsSelectedErrorMsg];
      else if (!bleIds.includes(sensor.id)) bleIds = [...bleIds, sensor.id];
    } else {
      const unit = await accountUnit(caller.accountId, body.terminal_id);
      if (!unit) errors['terminal_id'] = [keys.UnitsSelectedErrorMsg];
      else if (!gpsImeis.includes(unit.imei)) gpsImeis = [...gpsImeis, unit.imei];
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const email = (body.email ?? '').trim();
  // The field rules passed: a phone given is a valid mobile number.
  const phone = parsePhone(body.phone ?? '', body.country_code || DEFAULT_PHONE_DIAL_CODE);
  const fields: ReceiverFields = {
    name: body.name.trim(),
    email: email || null,
    countryCode: phone?.callingCode ?? null,
    phone: phone?.e164 ?? null,
    pushNotification: push,
    securityAlarm: body.security_alarm,
    functionAlarm: body.function_alarm,
    memberId: member?.userId ?? null,
    gpsImeis,
    bleIds,
  };
  return prev ? updateReceiver(prev, fields, now) : createReceiver(caller.accountId, fields, now);
}

/** The units to choose from for a receiver, with the ones it has selected (spec section 3); `selectedOnly`: only those GPS units. */
export async function receiverUnits(caller: Caller, receiverId: string, selectedOnly = false): Promise<AlarmReceiverUnits> {
  const [receiver, units] = await Promise.all([getReceiver(caller.accountId, receiverId), accountUnits(caller.accountId)]);
  const sensors = await accountSensors(caller.accountId, units);
  const selected = new Set(receiver.gpsImeis);
  const selectedBle = new Set(receiver.bleIds);
  return {
    gps: units
      .filter((u) => !selectedOnly || selected.has(u.imei))
      .map((u) => ({ ID: u.imei, Name: u.name, Imei: u.imei, IsSelected: bit(selected.has(u.imei)), isLocked: u.locked }))
      .sort((a, b) => a.Name.localeCompare(b.Name) || a.Imei.localeCompare(b.Imei)),
    ble: sensors.map((s) => ({ id: s.id, Name: s.name, SerialNumber: formatMac(s.mac), IsSelected: bit(selectedBle.has(s.id)) })),
  };
}

/**
 * Sets the units a receiver gets alarms of to exactly `terminals`. Every unit must be the
 * account's; a locked unit keeps its state (it can be neither added nor removed).
 */
export async function assignUnits(caller: Caller, body: z.output<typeof assignUnitsRequestSchema>, now: Date): Promise<void> {
  const [receiver, units] = await Promise.all([getReceiver(caller.accountId, body.receiver_id), accountUnits(caller.accountId)]);
  const byImei = new Map(units.map((u) => [u.imei, u]));
  const wanted = new Set<string>();
  const wantedBle = new Set<string>();
  const sensors = body.terminals.some((t) => t.device_type === 'ble') ? await accountSensors(caller.accountId, units) : [];
  const sensorIds = new Set(sensors.map((s) => s.id));
  for (const terminal of body.terminals) {
    if (terminal.device_type === 'ble') {
      if (!sensorIds.has(terminal.terminal_id)) throw new ValidationError({ terminals: [keys.UnitsSelectedErrorMsg] }, keys.UnitsSelectedErrorMsg);
      wantedBle.add(terminal.terminal_id);
      continue;
    }
    const unit = byImei.get(terminal.terminal_id);
    if (!unit) throw new ValidationError({ terminals: [keys.UnitsSelectedErrorMsg] }, keys.UnitsSelectedErrorMsg);
    wanted.add(unit.imei);
  }
  const had = new Set(receiver.gpsImeis);
  for (const unit of units) {
    if (unit.locked && had.has(unit.imei) !== wanted.has(unit.imei)) {
      throw new ValidationError({ terminals: [keys.UnitIsLocked] }, keys.UnitsSelectedErrorMsg);
    }
  }
  // Units no longer of the account drop out; the order is the units'.
  const gpsImeis = units.filter((u) => wanted.has(u.imei)).map((u) => u.imei);
  // Sensors keep the order they are listed in; ids no longer of the account drop out.
  const bleIds = sensors.filter((s) => wantedBle.has(s.id)).map((s) => s.id);
  if (!(await setReceiverFields(caller.accountId, receiver.id, { gpsImeis, bleIds }, now, receiver.rev))) {
    throw new NotFoundError(keys.AlarmReceiverNotFound);
  }
}

export async function toggleAlarm(caller: Caller, receiverId: string, type: 'security' | 'function', state: boolean, now: Date): Promise<void> {
  const field = type === 'security' ? 'securityAlarm' : 'functionAlarm';
  if (!(await setReceiverFields(caller.accountId, receiverId, { [field]: state }, now))) throw new NotFoundError(keys.AlarmReceiverNotFound);
}

/** The account's users that are not receivers yet (by link or by e-mail), for the existing-user picker. */
export async function candidateMembers(accountId: string, receivers: readonly AlarmReceiverRecord[]): Promise<Member[]> {
  const linked = new Set(receivers.map((r) => r.memberId).filter((id): id is string => id !== null));
  const emails = new Set(receivers.map((r) => r.email?.toLowerCase()).filter((e): e is string => Boolean(e)));
  const members = await accountMembers(accountId);
  return members
    .filter((m) => !linked.has(m.userId) && !emails.has(m.email.toLowerCase()))
    .sort((a, b) => `${a.firstName} ${a.lastName}`.localeCompare(`${b.firstName} ${b.lastName}`));
}
