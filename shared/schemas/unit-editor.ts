/**
 * The unit editor (/user/edit-terminal; docs/api.md Unit editor; spec sections 2, 3, 5, 6, 8 and
 * 9): what an owner keeps about one unit. GET answers all of it; PUT takes any subset of the
 * fields (a partial update: only the fields present are written, so two people saving different
 * sections at once keep each other's changes), `null` clearing an optional one. Validation
 * messages are message keys (shared/schemas/unit-editor-messages.ts).
 *
 * Limits: name required, at most 50; registration number letters and digits only, stored upper
 * case, at most 2 changes per unit in any 24 hours; consumption per 10 km greater than 0 and CO2
 * g/km required whenever the fuel section is saved (spec section 5); DOUT labels at most 20
 * characters (spec section 9); name history keeps the last 50 names. `odometer` (km) and
 * `operatingHours` (hours) are readings "the vehicle shows this now": each becomes an entry
 * (docs/decisions/0027-odometer-and-operating-hours.md), and GET answers them corrected by the
 * latest entries.
 */
import { z } from 'zod';
import { DOUT_LABEL_MAX_CHARS, operatingModes } from './commands';
import { markerSymbols, realtimeUnitSchema } from './tracking';
import { dateTimeSchema, ODOMETER_MAX_KM } from './trips';
import { IMEI_PATTERN } from '../validators/imei';
import { INVALID_ANY_PHONE, PHONE_INPUT_MAX, phoneE164, phoneError } from '../validators/phone-rule';
import { unitEditorMessageKeys as keys } from './unit-editor-messages';
import { vehicleTypes } from './vehicle-types';
import { fuelTypes } from './fuel';

export const UNIT_NAME_MAX = 50;
export const REGISTRATION_NUMBER_MAX = 20;
/** Registration number changes allowed per unit within REGISTRATION_WINDOW_HOURS (spec section 5). */
export const REGISTRATION_CHANGES_PER_WINDOW = 2;
export const REGISTRATION_WINDOW_HOURS = 24;
export const NAME_HISTORY_MAX = 50;
export const DIN_LABEL_MAX_CHARS = 20;
export const DESCRIPTION_TEXT_MAX = 100;
export const THEFT_OTHER_INFO_MAX = 1000;
export const LINKS_MAX = 5;
export const LINK_MAX_CHARS = 300;
export const SERVICE_INTERVALS_MAX = 10;
export const SERVICE_NAME_MAX = 50;
/** Distance and hour intervals are due soon in their last 10 %; date intervals in their last 14 days. */
export const SERVICE_DUE_SOON_SHARE = 0.1;
export const SERVICE_DUE_SOON_DAYS = 14;
/** An operating-hours reading: 0 to a million hours (over a century of running day and night). */
export const OPERATING_HOURS_MAX = 1_000_000;

/** The digital inputs and outputs a unit names (spec: DIN2-3, DOUT1-3; some trackers use DIN1 too). */
export const UNIT_IO_NUMBERS = ['1', '2', '3'] as const;

export { vehicleTypes, type VehicleType } from './vehicle-types';
/** Vehicle types whose object description is asked for (spec section 2: boats, cars and water jets). */
export const describedVehicleTypes: readonly string[] = ['car', 'van', 'boat', 'waterjet'];

export { fuelTypes, type FuelType } from './fuel';
/** Litres per hour of idling: a lorry's engine burns a few; more is a typing error. */
export const IDLE_CONSUMPTION_MAX = 20;
export const ecoSensitivities = ['sensitive', 'normal', 'insensitive'] as const;
export type EcoSensitivity = (typeof ecoSensitivities)[number];
/** 'Bas' units have the trip log only and are left out of the car schedule (spec section 2). */
export const subscriptionTypes = ['Bas', 'Standard'] as const;
export const frequencyUnits = ['seconds', 'minutes', 'hours'] as const;
export type FrequencyUnit = (typeof frequencyUnits)[number];
export const FREQUENCY_SECONDS: Readonly<Record<FrequencyUnit, number>> = { seconds: 1, minutes: 60, hours: 3600 };
/** A report every 10 seconds at most often, once a day at least (spec section 9: fixed 24 h). */
export const FREQUENCY_MIN_SECONDS = 10;
export const FREQUENCY_MAX_SECONDS = 86_400;
export const serviceKinds = ['distance', 'hours', 'date'] as const;
export type ServiceKind = (typeof serviceKinds)[number];
export const serviceStates = ['ok', 'dueSoon', 'overdue'] as const;
export type ServiceState = (typeof serviceStates)[number];
/** Whether the report frequency may be changed: 'denied' (DeniedChangeRF) and 'locked' (FrequencyLocked) are set by support. */
export const frequencyChangeStates = ['allowed', 'denied', 'locked'] as const;

const text = (max: number) => z.string({ message: keys.TextTooLong }).trim().max(max, keys.TextTooLong);
const day = (message: string) => z.iso.date({ message });

export const objectDescriptionSchema = z.object({
  manufacturer: text(DESCRIPTION_TEXT_MAX).default(''),
  model: text(DESCRIPTION_TEXT_MAX).default(''),
  year: z.number({ message: keys.YearInvalid }).int(keys.YearInvalid).min(1900, keys.YearInvalid).max(2100, keys.YearInvalid).nullable().default(null),
  hullNumber: text(DESCRIPTION_TEXT_MAX).default(''),
  motorNumber: text(DESCRIPTION_TEXT_MAX).default(''),
  chassisNumber: text(DESCRIPTION_TEXT_MAX).default(''),
  insuranceCompany: text(DESCRIPTION_TEXT_MAX).default(''),
  insuranceNumber: text(DESCRIPTION_TEXT_MAX).default(''),
  links: z
    .array(z.url({ protocol: /^https?$/, message: keys.LinkInvalid }).max(LINK_MAX_CHARS, keys.LinkInvalid), { message: keys.LinkInvalid })
    .max(LINKS_MAX, keys.TooManyLinks)
    .default([]),
});
export type ObjectDescription = z.output<typeof objectDescriptionSchema>;

/** The country an owner's phone typed without a country code is read in when the body names none. */
export const DEFAULT_OWNER_PHONE_COUNTRY = 'SE';

/**
 * The theft info as stored and answered. `ownerPhone` is E.164 once saved through
 * `theftInfoInputSchema`; a number stored before that rule is answered as it was typed (a read
 * never drops the theft info for an older value), and saving the section again checks it.
 */
export const theftInfoSchema = z.object({
  date: day(keys.TheftDateInvalid).nullable().default(null),
  place: text(DESCRIPTION_TEXT_MAX).default(''),
  policeStation: text(DESCRIPTION_TEXT_MAX).default(''),
  reportNumber: text(DESCRIPTION_TEXT_MAX).default(''),
  claimNumber: text(DESCRIPTION_TEXT_MAX).default(''),
  ownerName: text(DESCRIPTION_TEXT_MAX).default(''),
  ownerEmail: z.union([z.literal(''), z.email({ message: keys.OwnerEmailInvalid }).max(DESCRIPTION_TEXT_MAX, keys.OwnerEmailInvalid)], { message: keys.OwnerEmailInvalid }).default(''),
  ownerPhone: z.string({ message: INVALID_ANY_PHONE }).trim().max(PHONE_INPUT_MAX, INVALID_ANY_PHONE).default(''),
  otherInfo: text(THEFT_OTHER_INFO_MAX).default(''),
});
/**
 * The theft info as PUT takes it: the owner's phone is on the one phone rule (any valid number of
 * its country, fixed lines included), typed as the owner knows it and read in `ownerPhoneCountry`
 * (ISO 3166, 'SE' when absent; an international number names its own), stored as E.164.
 */
export const theftInfoInputSchema = theftInfoSchema
  .extend({ ownerPhoneCountry: z.string({ message: INVALID_ANY_PHONE }).trim().max(3, INVALID_ANY_PHONE).optional() })
  .superRefine((v, ctx) => {
    const problem = phoneError(v.ownerPhone, v.ownerPhoneCountry || DEFAULT_OWNER_PHONE_COUNTRY, 'any');
    if (problem) ctx.addIssue({ code: 'custom', path: ['ownerPhone'], message: problem });
  })
  .transform(({ ownerPhoneCountry, ...theft }) => ({
    ...theft,
    ownerPhone: theft.ownerPhone === '' ? '' : phoneE164(theft.ownerPhone, ownerPhoneCountry || DEFAULT_OWNER_PHONE_COUNTRY, 'any'),
  }));
export type TheftInfo = z.output<typeof theftInfoSchema>;

export const reportFrequencySchema = z
  .object({
    value: z.number({ message: keys.ReportFrequencyInvalid }).int(keys.ReportFrequencyInvalid).positive(keys.ReportFrequencyInvalid),
    unit: z.enum(frequencyUnits, { message: keys.ReportFrequencyUnitInvalid }),
  })
  .superRefine((f, ctx) => {
    const seconds = f.value * FREQUENCY_SECONDS[f.unit];
    if (seconds < FREQUENCY_MIN_SECONDS || seconds > FREQUENCY_MAX_SECONDS) ctx.addIssue({ code: 'custom', path: ['value'], message: keys.ReportFrequencyInvalid });
  });
export type ReportFrequency = z.output<typeof reportFrequencySchema>;

/** The limits of `every` per kind: km, engine hours, months. */
export const SERVICE_EVERY_MAX: Readonly<Record<ServiceKind, number>> = { distance: 1_000_000, hours: 100_000, date: 120 };

/**
 * A service interval: every `every` km (distance, the tracker's odometer), engine hours (hours)
 * or months (date), counted from the last service (`lastService`: km, hours, or yyyy-MM-dd).
 * Marking it serviced moves `lastService` to now.
 */
export const serviceIntervalInputSchema = z
  .object({
    /** An existing interval's id; a new one gets its id on save. */
    id: z.string().min(1).max(64).optional(),
    name: z.string({ message: keys.SpecifyServiceName }).trim().min(1, keys.SpecifyServiceName).max(SERVICE_NAME_MAX, keys.ServiceNameTooLong),
    kind: z.enum(serviceKinds, { message: keys.InvalidServiceKind }),
    every: z.number({ message: keys.ServiceEveryInvalid }).int(keys.ServiceEveryInvalid).positive(keys.ServiceEveryInvalid),
    lastService: z.union([z.number(), z.string()], { message: keys.LastServiceInvalid }),
  })
  .superRefine((s, ctx) => {
    if (s.every > SERVICE_EVERY_MAX[s.kind]) ctx.addIssue({ code: 'custom', path: ['every'], message: keys.ServiceEveryInvalid });
    const validLast =
      s.kind === 'date'
        ? typeof s.lastService === 'string' && z.iso.date().safeParse(s.lastService).success
        : typeof s.lastService === 'number' && Number.isFinite(s.lastService) && s.lastService >= 0 && s.lastService <= 100_000_000;
    if (!validLast) ctx.addIssue({ code: 'custom', path: ['lastService'], message: keys.LastServiceInvalid });
  });
export type ServiceIntervalInput = z.output<typeof serviceIntervalInputSchema>;

/** A service interval as stored: its id given. */
export type ServiceInterval = ServiceIntervalInput & { id: string };

export const serviceStatusSchema = z.object({
  state: z.enum(serviceStates),
  /** When due: km or hours (number), or yyyy-MM-dd. */
  dueAt: z.union([z.number(), z.string()]),
  /** km, hours or days left (negative: overdue by), null while the unit has not reported the counter. */
  remaining: z.number().nullable(),
  /** The counter now: km, hours, or today's date; null when not reported yet. */
  current: z.union([z.number(), z.string()]).nullable(),
});
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;

export const serviceIntervalSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(serviceKinds),
  every: z.number(),
  lastService: z.union([z.number(), z.string()]),
  status: serviceStatusSchema,
});

const labels = (max: number, tooLong: string) =>
  z
    .record(z.string(), z.string({ message: tooLong }).trim().max(max, tooLong), { message: tooLong })
    .superRefine((map, ctx) => {
      for (const key of Object.keys(map)) {
        if (!(UNIT_IO_NUMBERS as readonly string[]).includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: keys.InvalidOutputNumber });
      }
    })
    // An empty label is no label.
    .transform((map) => Object.fromEntries(Object.entries(map).filter(([, v]) => v !== '')));

/** PUT /api/v1/user/units/{imei}: any subset of the editable fields. */
export const unitUpdateSchema = z
  .object({
    name: z.string({ message: keys.SpecifyUnitName }).trim().min(1, keys.SpecifyUnitName).max(UNIT_NAME_MAX, keys.UnitNameTooLong),
    registrationNumber: z
      .string({ message: keys.RegistrationNumberInvalid })
      .trim()
      .max(REGISTRATION_NUMBER_MAX, keys.RegistrationNumberTooLong)
      .regex(/^[\p{L}\p{N}]*$/u, keys.RegistrationNumberInvalid)
      .transform((v) => v.toUpperCase())
      .nullable(),
    colour: z.string({ message: keys.InvalidColour }).regex(/^#[0-9a-f]{6}$/i, keys.InvalidColour).transform((v) => v.toLowerCase()),
    symbol: z.enum(markerSymbols, { message: keys.InvalidSymbol }),
    vehicleType: z.enum(vehicleTypes, { message: keys.InvalidVehicleType }),
    subscriptionType: z.enum(subscriptionTypes, { message: keys.InvalidSubscriptionType }).nullable(),
    fuelType: z.enum(fuelTypes, { message: keys.SpecifyFuelType }),
    consumption: z.number({ message: keys.ConsumptionMustBePositive }).positive(keys.ConsumptionMustBePositive).max(100, keys.ConsumptionTooLarge),
    /** Litres (kWh, kg: the fuel's quantity) per hour of idling; optional, null clears it. The fuel report counts it with the trips' idle time. */
    idleConsumption: z
      .number({ message: keys.IdleConsumptionInvalid })
      .positive(keys.IdleConsumptionInvalid)
      .max(IDLE_CONSUMPTION_MAX, keys.IdleConsumptionInvalid)
      .nullable(),
    co2: z.number({ message: keys.SpecifyCo2 }).min(0, keys.Co2Invalid).max(2000, keys.Co2Invalid),
    nextInspection: day(keys.InspectionDateInvalid).nullable(),
    ecoSensitivity: z.enum(ecoSensitivities, { message: keys.InvalidEcoSensitivity }),
    overspeedKmh: z.number({ message: keys.OverspeedLimitInvalid }).int(keys.OverspeedLimitInvalid).min(1, keys.OverspeedLimitInvalid).max(350, keys.OverspeedLimitInvalid).nullable(),
    overspeedSeconds: z.number({ message: keys.OverspeedSecondsInvalid }).int(keys.OverspeedSecondsInvalid).min(0, keys.OverspeedSecondsInvalid).max(3600, keys.OverspeedSecondsInvalid),
    lowBatteryAlert: z.boolean({ message: keys.InvalidInput }),
    dinAlarms: z
      .record(z.string(), z.boolean({ message: keys.InvalidInput }), { message: keys.InvalidInput })
      .superRefine((map, ctx) => {
        for (const key of Object.keys(map)) if (!(UNIT_IO_NUMBERS as readonly string[]).includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: keys.InvalidInput });
      }),
    dinLabels: labels(DIN_LABEL_MAX_CHARS, keys.DinLabelTooLong),
    doutLabels: labels(DOUT_LABEL_MAX_CHARS, keys.DoutLabelTooLong),
    timeTillParkedMinutes: z.number({ message: keys.TimeTillParkedInvalid }).int(keys.TimeTillParkedInvalid).min(1, keys.TimeTillParkedInvalid).max(1440, keys.TimeTillParkedInvalid),
    reportFrequency: reportFrequencySchema,
    /** Support staff only: whether the owner may change the report frequency. */
    reportFrequencyChange: z.enum(frequencyChangeStates, { message: keys.InvalidInput }),
    objectDescription: objectDescriptionSchema,
    theft: theftInfoInputSchema,
    serviceIntervals: z
      .array(serviceIntervalInputSchema, { message: keys.InvalidInput })
      .max(SERVICE_INTERVALS_MAX, keys.TooManyServiceIntervals)
      .superRefine((list, ctx) => {
        const ids = list.map((s) => s.id).filter((id): id is string => id !== undefined);
        if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: keys.DuplicateServiceInterval });
      }),
    /** The odometer reading now, km (same bounds as the trip log's odometer entries): an odometer entry at now. */
    odometer: z.number({ message: keys.SpecifyOdometer }).min(0, keys.OdometerInvalid).max(ODOMETER_MAX_KM, keys.OdometerInvalid),
    /** The engine hours reading now: an operating-hours entry at now. */
    operatingHours: z.number({ message: keys.SpecifyOperatingHours }).min(0, keys.OperatingHoursInvalid).max(OPERATING_HOURS_MAX, keys.OperatingHoursInvalid),
  })
  .partial()
  .strict()
  // The fuel section is saved whole: fuel type, consumption and CO2 together (spec section 5).
  .superRefine((body, ctx) => {
    const fuel = ['fuelType', 'consumption', 'co2'] as const;
    if (!fuel.some((f) => body[f] !== undefined)) return;
    if (body.fuelType === undefined) ctx.addIssue({ code: 'custom', path: ['fuelType'], message: keys.SpecifyFuelType });
    if (body.consumption === undefined) ctx.addIssue({ code: 'custom', path: ['consumption'], message: keys.ConsumptionMustBePositive });
    if (body.co2 === undefined) ctx.addIssue({ code: 'custom', path: ['co2'], message: keys.SpecifyCo2 });
  });
export type UnitUpdateRequest = z.input<typeof unitUpdateSchema>;
export type UnitUpdate = z.output<typeof unitUpdateSchema>;

export const nameHistoryEntrySchema = z.object({
  name: z.string(),
  /** ISO 8601 UTC. */
  at: z.string(),
  /** The user who renamed it (their user name). */
  by: z.string(),
});
export type NameHistoryEntry = z.infer<typeof nameHistoryEntrySchema>;

/** GET and PUT /api/v1/user/units/{imei}: the unit as the editor shows it. */
export const unitEditorSchema = z.object({
  imei: z.string(),
  name: z.string(),
  registrationNumber: z.string().nullable(),
  /** Changes of the registration number still allowed in the current 24 hours. */
  registrationChangesLeft: z.number().int().min(0),
  colour: z.string(),
  symbol: z.string(),
  vehicleType: z.string(),
  subscriptionType: z.enum(subscriptionTypes).nullable(),
  /** The caller may change the subscription type and the frequency locks (support staff). */
  isSupport: z.boolean(),
  fuelType: z.enum(fuelTypes).nullable(),
  consumption: z.number().nullable(),
  idleConsumption: z.number().nullable(),
  co2: z.number().nullable(),
  /** The odometer, km: the latest odometer entry counted on with the unit's distance counter, else the tracker's; null when neither is known. */
  odometer: z.number().nullable(),
  /** The engine hours: the latest operating-hours entry counted on with the tracker's engine hours, else the tracker's; null when neither is known. */
  operatingHours: z.number().nullable(),
  /** The operating hours advance with the tracker's engine-hours counter (false: they hold at the latest reading). */
  operatingHoursCounted: z.boolean(),
  nextInspection: z.string().nullable(),
  ecoSensitivity: z.enum(ecoSensitivities),
  overspeedKmh: z.number().nullable(),
  overspeedSeconds: z.number(),
  lowBatteryAlert: z.boolean(),
  dinAlarms: z.record(z.string(), z.boolean()),
  dinLabels: z.record(z.string(), z.string()),
  doutLabels: z.record(z.string(), z.string()),
  timeTillParkedMinutes: z.number(),
  reportFrequency: z.object({ value: z.number(), unit: z.enum(frequencyUnits) }).nullable(),
  reportFrequencyChange: z.enum(frequencyChangeStates),
  operatingMode: z.enum(operatingModes).nullable(),
  objectDescription: objectDescriptionSchema,
  theft: theftInfoSchema,
  serviceIntervals: z.array(serviceIntervalSchema),
  /** The last names, newest first, at most 50. */
  nameHistory: z.array(nameHistoryEntrySchema),
  /** The unit as the map and the command controls show it (state, labels, operating mode). */
  realtime: realtimeUnitSchema,
});
export type UnitEditor = z.infer<typeof unitEditorSchema>;

export const unitEditorParamsSchema = z.object({ imei: z.string().regex(/^\d{15}$/, keys.UnitNotFound) });

/** POST /api/v1/user/units/{imei}/operating-hours-entries: "at this time the engine hours read this". */
export const operatingHoursEntryRequestSchema = z.object({
  time: dateTimeSchema,
  value: z.number({ message: keys.SpecifyOperatingHours }).min(0, keys.OperatingHoursInvalid).max(OPERATING_HOURS_MAX, keys.OperatingHoursInvalid),
});
export type OperatingHoursEntryRequest = z.infer<typeof operatingHoursEntryRequestSchema>;
export const operatingHoursEntrySchema = z.object({
  /** The reading's time, epoch ms as text. */
  id: z.string(),
  imei: z.string(),
  /** ISO 8601 with the offset of the TimeZone header's zone. */
  time: z.string(),
  /** hours */
  value: z.number(),
  /** Whether the reading was kept with the tracker's engine-hours counter (the hours count on from it). */
  counted: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type OperatingHoursEntry = z.infer<typeof operatingHoursEntrySchema>;
export const operatingHoursEntryListSchema = z.array(operatingHoursEntrySchema);
export const operatingHoursEntryParamsSchema = z.object({
  imei: z.string().regex(IMEI_PATTERN, keys.UnitNotFound),
  entryId: z.string().regex(/^\d{1,15}$/, keys.EntryNotFound),
});
