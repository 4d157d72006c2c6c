/**
 * The sensor form's model: what the fields hold (text, as typed), the MAC's input mask, and the
 * request built and checked with the server's own schema, so the form shows the same message keys
 * per field as a 422 would.
 */
import {
  sensorCreateRequestSchema,
  sensorUpdateRequestSchema,
  type Sensor,
  type SensorCreateRequest,
  type SensorKind,
  type SensorUpdateRequest,
} from '../../../../shared/schemas/sensors';

export interface SensorFormValues {
  mac: string;
  name: string;
  kind: SensorKind;
  tempMin: string;
  tempMax: string;
  humMin: string;
  humMax: string;
  doorOpen: boolean;
  lowBattery: boolean;
}
export type SensorFormField = keyof SensorFormValues;
export type SensorFormErrors = Partial<Record<SensorFormField, string>>;

export const emptySensorForm: SensorFormValues = { mac: '', name: '', kind: 'temperature', tempMin: '', tempMax: '', humMin: '', humMax: '', doorOpen: false, lowBattery: false };

const text = (v: number | null) => (v === null ? '' : String(v));

export function sensorFormOf(sensor: Sensor): SensorFormValues {
  const t = sensor.thresholds;
  return { mac: sensor.mac, name: sensor.name, kind: sensor.kind, tempMin: text(t.tempMin), tempMax: text(t.tempMax), humMin: text(t.humMin), humMax: text(t.humMax), doorOpen: t.doorOpen, lowBattery: t.lowBattery };
}

/** The MAC as it is typed: hex digits only, upper case, in pairs separated by colons ("AC:23:F4:1"). */
export function maskMac(raw: string): string {
  const hex = raw.replace(/[^0-9a-f]/gi, '').toUpperCase().slice(0, 12);
  return hex.match(/.{1,2}/g)?.join(':') ?? '';
}

/** A typed number: empty is none; a decimal comma is read as a point; anything else is sent as typed (and refused). */
function numberOf(v: string): number | null | string {
  const s = v.trim().replace(',', '.');
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : v;
}

function thresholdsOf(v: SensorFormValues) {
  return { tempMin: numberOf(v.tempMin), tempMax: numberOf(v.tempMax), humMin: numberOf(v.humMin), humMax: numberOf(v.humMax), doorOpen: v.doorOpen, lowBattery: v.lowBattery };
}

/** A field of the form for a path of the request ("thresholds.tempMin" is the tempMin field). */
export function formFieldOf(path: string): SensorFormField | null {
  const last = path.split('.').pop() ?? '';
  return ['mac', 'name', 'kind', 'tempMin', 'tempMax', 'humMin', 'humMax', 'doorOpen', 'lowBattery'].includes(last) ? (last as SensorFormField) : null;
}

function errorsOf(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): SensorFormErrors {
  const errors: SensorFormErrors = {};
  for (const issue of issues) {
    const field = formFieldOf(issue.path.map(String).join('.'));
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export function createRequest(v: SensorFormValues): { body: SensorCreateRequest } | { errors: SensorFormErrors } {
  const body = { mac: v.mac, name: v.name, kind: v.kind, thresholds: thresholdsOf(v) };
  const parsed = sensorCreateRequestSchema.safeParse(body);
  return parsed.success ? { body: body as SensorCreateRequest } : { errors: errorsOf(parsed.error.issues) };
}

export function updateRequest(v: SensorFormValues): { body: SensorUpdateRequest } | { errors: SensorFormErrors } {
  const body = { name: v.name, thresholds: thresholdsOf(v) };
  const parsed = sensorUpdateRequestSchema.safeParse(body);
  return parsed.success ? { body: body as SensorUpdateRequest } : { errors: errorsOf(parsed.error.issues) };
}

/** A 422's field errors (paths to message keys) on the form's fields. */
export function serverErrors(fieldErrors: Readonly<Record<string, readonly string[]>>): SensorFormErrors {
  return errorsOf(Object.entries(fieldErrors).flatMap(([path, keys]) => (keys[0] ? [{ path: path.split('.'), message: keys[0] }] : [])));
}
