/**
 * The theft report, a pure function of what is stored about a stolen unit: its theft information
 * and object description, the last known position before the theft, the route and events after it,
 * and the theft-mode commands with their answers. Printable for the police and the insurer.
 */
import { eventDescription } from '../../../shared/event-texts';
import type { PortalEvent } from '../../../shared/schemas/events';
import type { Command } from '../../../shared/schemas/commands';
import type { ReportFact, ReportTable, ReportUnit } from '../../../shared/schemas/reports';
import type { ObjectDescription, TheftInfo } from '../../../shared/schemas/unit-editor';
import type { Texts } from '../columns';

export interface TheftPosition {
  ts: number;
  lat: number;
  lon: number;
  speed: number | null;
}

export interface TheftInput {
  imei: string;
  name: string;
  registrationNumber: string | null;
  theft: TheftInfo | null;
  description: ObjectDescription | null;
  /** When the report counts from: the theft date's start, or the period's when no date is entered. */
  theftMs: number;
  lastBefore: TheftPosition | null;
  positions: readonly TheftPosition[];
  /** More positions were stored than the report lists. */
  positionsCapped: boolean;
  events: readonly PortalEvent[];
  commands: readonly Command[];
  iso: (ms: number) => string;
  /** The owner's phone as the reader writes it. */
  phone: (e164: string) => string;
}

/** Theft info and object description fields in print order, by their unit editor label keys. */
const THEFT_FIELDS: readonly [keyof TheftInfo, string][] = [
  ['place', 'UnitEditorTheft_place'],
  ['policeStation', 'UnitEditorTheft_policeStation'],
  ['reportNumber', 'UnitEditorTheft_reportNumber'],
  ['claimNumber', 'UnitEditorTheft_claimNumber'],
  ['ownerName', 'UnitEditorTheft_ownerName'],
  ['ownerEmail', 'UnitEditorTheft_ownerEmail'],
  ['ownerPhone', 'UnitEditorTheft_ownerPhone'],
  ['otherInfo', 'UnitEditorTheft_otherInfo'],
];
const DESCRIPTION_FIELDS: readonly [keyof ObjectDescription, string][] = [
  ['manufacturer', 'UnitEditor_manufacturer'],
  ['model', 'UnitEditor_model'],
  ['year', 'UnitEditor_year'],
  ['hullNumber', 'UnitEditor_hullNumber'],
  ['motorNumber', 'UnitEditor_motorNumber'],
  ['chassisNumber', 'UnitEditor_chassisNumber'],
  ['insuranceCompany', 'UnitEditor_insuranceCompany'],
  ['insuranceNumber', 'UnitEditor_insuranceNumber'],
];

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const place = (p: TheftPosition) => `${p.lat.toFixed(5)}, ${p.lon.toFixed(5)}`;

export function theftUnit(input: TheftInput, x: Texts): ReportUnit {
  const facts: ReportFact[] = [];
  const notes: string[] = [];
  const theft = input.theft;
  facts.push(x.fact('theftDate', theft?.date ?? null, 'day'));
  for (const [field, label] of THEFT_FIELDS) {
    const raw = theft?.[field];
    if (raw === undefined || raw === null || raw === '') continue;
    const value = field === 'ownerPhone' ? input.phone(String(raw)) : String(raw);
    facts.push({ ...x.fact(field, value, 'text'), label: x.t(label) });
  }
  facts.push(x.fact('theftTime', input.iso(input.theftMs), 'dateTime'));
  if (input.lastBefore) {
    facts.push(x.fact('lastPositionTime', input.iso(input.lastBefore.ts), 'dateTime'), x.fact('lastPosition', place(input.lastBefore), 'text'));
  } else facts.push(x.fact('lastPosition', x.t('ReportFact_noPosition'), 'text', 'warning'));
  if (!theft?.date) notes.push(x.t('ReportNote_theftNoDate'));
  if (input.positionsCapped) notes.push(x.t('ReportNote_positionsCapped', { count: input.positions.length }));

  const tables: ReportTable[] = [];
  const description = input.description;
  const described = DESCRIPTION_FIELDS.filter(([field]) => description && description[field] !== null && description[field] !== '');
  if (description && described.length) {
    tables.push({
      key: 'description',
      title: x.t('ReportTable_description'),
      columns: [x.column('field', 'text'), x.column('value', 'text', { label: x.t('ReportCol_newValue') })],
      rows: described.map(([field, label]) => ({ field: x.t(label), value: String(description[field]) })),
      totals: null,
    });
  }
  tables.push({
    key: 'eventsAfter',
    title: x.t('ReportTable_eventsAfter'),
    columns: [x.column('time', 'dateTime'), x.column('event', 'text'), x.column('place', 'text')],
    rows: input.events.map((e) => {
      const text = eventDescription(e.type, e.details);
      return { ...e, event: x.t(text.key, text.vars), place: e.lat === null || e.lon === null ? null : `${e.lat.toFixed(5)}, ${e.lon.toFixed(5)}` };
    }),
    totals: null,
  });
  tables.push({
    key: 'commands',
    title: x.t('ReportTable_commands'),
    columns: [x.column('createdAt', 'dateTime', { label: x.t('ReportCol_time') }), x.column('command', 'text'), x.column('status', 'text'), x.column('answeredAt', 'dateTime', { label: x.t('ReportCol_answer') })],
    rows: input.commands.map((c) => ({
      ...c,
      createdAt: input.iso(Date.parse(c.createdAt)),
      answeredAt: c.answeredAt === null ? null : input.iso(Date.parse(c.answeredAt)),
      command: 'mode' in c.params ? x.t(`OperatingMode${capitalized(String(c.params.mode))}`) : c.type,
      status: x.t(`ReportCommand_${c.status}`),
    })),
    totals: null,
  });
  return {
    imei: input.imei,
    name: input.name,
    registrationNumber: input.registrationNumber,
    rows: input.positions.map((p) => ({ time: input.iso(p.ts), lat: p.lat, lon: p.lon, speed: p.speed })),
    totals: { positions: input.positions.length, events: input.events.length },
    facts,
    tables,
    notes,
    details: {
      theft,
      description,
      theftTime: input.iso(input.theftMs),
      lastPositionBefore: input.lastBefore ? { time: input.iso(input.lastBefore.ts), lat: input.lastBefore.lat, lon: input.lastBefore.lon, speed: input.lastBefore.speed } : null,
    },
  };
}

export const theftColumns = (x: Texts) => [x.column('time', 'dateTime'), x.column('lat', 'coordinate', { label: 'Lat' }), x.column('lon', 'coordinate', { label: 'Lon' }), x.column('speed', 'speed')];
