/**
 * Alarm receivers, their units, and the account's alert language and time zone (docs/api.md
 * Administration; spec sections 2, 3, 5, 6 and 9). Field names are the HTTP contract's (docs/api.md):
 * snake_case and the spec's capitalised names where it writes them so. Flags travel as 0/1 (booleans
 * are accepted too).
 */
import { z } from 'zod';
import { ALERT_NUMBERS_PARENT_ID } from '../brands';
import { phoneError } from '../validators/phone-rule';
import { alarmMessageKeys as keys } from './alarms-messages';
import { languages, languageSchema, type Language } from './common';

/** Spec section 9: alerts default to Swedish in Stockholm time. */
export const DEFAULT_ALERT_LANGUAGE: Language = 'sv';
export const DEFAULT_ALERT_TIME_ZONE = 'Europe/Stockholm';
export const KATHMANDU_TIME_ZONE = 'Asia/Kathmandu';
export const ALERT_TIME_ZONES = ['Europe/Stockholm', 'Europe/London', 'Europe/Oslo', 'Europe/Helsinki', KATHMANDU_TIME_ZONE] as const;
/**
 * Spec section 6: Asia/Kathmandu is offered only under one parent account. The spec does not name
 * it; it is taken to be the same parent as the alert numbers page's (shared/brands.ts).
 */
export const KATHMANDU_PARENT_ID = ALERT_NUMBERS_PARENT_ID;

/** The alert time zones an account whose parent is `parentId` may choose. */
export function alertTimeZonesFor(parentId: string | null | undefined): string[] {
  return ALERT_TIME_ZONES.filter((zone) => zone !== KATHMANDU_TIME_ZONE || parentId === KATHMANDU_PARENT_ID);
}

export const NAME_MAX = 100;
/** A phone sent without its country code is read as Swedish (spec section 9: Sweden preferred). */
export const DEFAULT_PHONE_DIAL_CODE = '46';
export const EMAIL_MAX = 254;

/** 0/1 as the contract writes it; true/false accepted. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)], { message: 'InvalidValue' }).transform((v) => v === true || v === 1);
const bit = z.union([z.literal(0), z.literal(1)]);
/** An id the browser may send as a number. */
const idLike = z.union([z.string().trim().min(1).max(64), z.number().int().nonnegative()]).transform(String);

export const alertConfigSchema = z.object({ Language: languageSchema, TimeZone: z.string() });
export type AlertConfig = z.infer<typeof alertConfigSchema>;
export const alertConfigRequestSchema = z.object({
  language: z.enum(languages, { message: keys.InvalidAlertLanguage }),
  timezone: z.string().trim().min(1, keys.InvalidAlertTimeZone).max(64, keys.InvalidAlertTimeZone),
});
export type AlertConfigRequest = z.input<typeof alertConfigRequestSchema>;

export const deviceTypes = ['gps', 'ble'] as const;
export const deviceTypeSchema = z.enum(deviceTypes, { message: 'InvalidValue' });
export type DeviceType = z.infer<typeof deviceTypeSchema>;

export const alarmReceiverSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  /** The number's calling code without '+', e.g. "46"; null without a phone. */
  country_code: z.string().nullable(),
  /** Its national significant number (digits, no trunk 0), e.g. "701234567"; null without a phone. */
  phone: z.string().nullable(),
  push_notification: bit,
  security_alarm: bit,
  function_alarm: bit,
  /** The linked user, null when the receiver is not a user of the account. */
  member_id: z.string().nullable(),
  /** Whether the linked user has a push id: push notifications can be switched on. */
  has_push_id: z.boolean(),
  total_units: z.number().int(),
  total_ble_units: z.number().int(),
});
export type AlarmReceiver = z.infer<typeof alarmReceiverSchema>;

export const alarmReceiverListSchema = z.object({
  alarmReceivers: z.array(alarmReceiverSchema),
  SmsCredits: z.number(),
});
export type AlarmReceiverList = z.infer<typeof alarmReceiverListSchema>;

export const alarmReceiverSaveSchema = z.object({
  id: z.string().trim().min(1).max(64).optional(),
  member_id: idLike.nullable().optional(),
  name: z.string().trim().max(NAME_MAX, 'TooLong'),
  email: z.string().trim().max(EMAIL_MAX, 'TooLong').nullable().optional(),
  country_code: z.string().trim().max(8, 'TooLong').nullable().optional(),
  phone: z.string().trim().max(24, 'TooLong').nullable().optional(),
  push_notification: flag.optional(),
  function_alarm: flag,
  security_alarm: flag,
  /** Creating from a unit's page: the receiver gets that unit. */
  terminal_id: idLike.optional(),
  device_type: deviceTypeSchema.optional(),
});
export type AlarmReceiverSave = z.input<typeof alarmReceiverSaveSchema>;

export const alarmReceiverIdSchema = z.object({ id: z.string() });
export const alarmReceiverIdParamSchema = z.object({ id: z.string().min(1).max(64) });
export const deviceIdParamSchema = z.object({ deviceId: z.string().min(1).max(64) });

export const alarmReceiverUnitsRequestSchema = z.object({
  /** Accepted as the contract has it; the account comes from the token. */
  memberId: idLike.nullable().optional(),
  receiverId: z.string().trim().min(1).max(64),
  /**
   * Only the GPS units the receiver has (with their lock): a picker that searches the units list
   * itself needs no more, and the account's every unit would be megabytes at 50,000.
   */
  selectedOnly: z.boolean().optional(),
});
export const gpsUnitOptionSchema = z.object({
  ID: z.string(),
  Name: z.string(),
  Imei: z.string(),
  IsSelected: bit,
  isLocked: z.boolean(),
});
export const bleUnitOptionSchema = z.object({
  id: z.string(),
  Name: z.string(),
  SerialNumber: z.string(),
  IsSelected: bit,
});
export const alarmReceiverUnitsSchema = z.object({ gps: z.array(gpsUnitOptionSchema), ble: z.array(bleUnitOptionSchema) });
export type AlarmReceiverUnits = z.infer<typeof alarmReceiverUnitsSchema>;
export type GpsUnitOption = z.infer<typeof gpsUnitOptionSchema>;

export const assignUnitsRequestSchema = z.object({
  terminals: z.array(z.object({ terminal_id: idLike, device_type: deviceTypeSchema })).max(5000),
  receiver_id: z.string().trim().min(1).max(64),
});
export type AssignUnitsRequest = z.input<typeof assignUnitsRequestSchema>;

export const alarmToggleRequestSchema = z.object({
  receiverId: z.string().trim().min(1).max(64),
  type: z.enum(['security', 'function'], { message: 'InvalidValue' }),
  state: z.union([z.literal(0), z.literal(1), z.boolean()], { message: 'InvalidValue' }).transform((v) => v === true || v === 1),
});
export type AlarmToggleRequest = z.input<typeof alarmToggleRequestSchema>;

/** The account's users to link a receiver to (the existing-user picker): those not yet receivers. */
export const alarmMemberSchema = z.object({ ID: z.string(), FirstName: z.string(), LastName: z.string(), Email: z.string(), HasPushId: z.boolean() });
export const alarmMemberListSchema = z.object({ members: z.array(alarmMemberSchema) });
export type AlarmMember = z.infer<typeof alarmMemberSchema>;

/** Receivers of one unit (GET /alarm-receivers/gps/{deviceId}). */
export const unitReceiversSchema = z.object({ alarmReceivers: z.array(alarmReceiverSchema) });

const emailFormat = z.email();
export const isValidEmail = (value: string): boolean => emailFormat.safeParse(value).success;

export interface AlarmReceiverFields {
  name: string;
  email?: string | null | undefined;
  country_code?: string | null | undefined;
  phone?: string | null | undefined;
}

/**
 * The field rules of spec section 5, for the form and the server alike: name required; on subsite 0
 * an e-mail or a phone (a valid mobile number, read in the country of `country_code`:
 * shared/validators/phone-rule.ts), elsewhere an e-mail and no phone; an e-mail must be valid.
 */
export function alarmReceiverFieldErrors(fields: AlarmReceiverFields, subsiteId: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const name = fields.name.trim();
  const email = (fields.email ?? '').trim();
  const phone = (fields.phone ?? '').trim();
  if (!name) errors['name'] = [keys.AlarmReceiverNameRequired];
  if (email && !isValidEmail(email)) errors['email'] = [keys.EnterValidEmail];
  if (subsiteId === 0) {
    if (!email && !phone) errors['email'] = [keys.EmailOrPhoneRequired];
    if (phone) {
      const problem = phoneError(phone, fields.country_code || DEFAULT_PHONE_DIAL_CODE);
      if (problem) errors['phone'] = [problem];
    }
  } else {
    if (phone) errors['phone'] = [keys.PhoneNotAvailable];
    if (!email) errors['email'] = [keys.AlarmReceiverEmailRequired];
  }
  return errors;
}

/**
 * An SMS sender id as SNS sends it (AWS.SNS.SMS.SenderID): 3 to 11 letters and digits with at
 * least one letter, no spaces. SNS refuses any other with ParameterValueInvalid, so every SMS with it
 * would fail.
 */
export const SMS_SENDER_ID_PATTERN = /^(?=.*[A-Za-z])[A-Za-z0-9]{3,11}$/;
/** An origination number as SNS takes it (AWS.MM.SMS.OriginationNumber): E.164. */
export const SMS_ORIGINATION_NUMBER_PATTERN = /^\+[1-9]\d{6,14}$/;
/** Alert sender numbers (configure-alert-numbers): an origination number (E.164) or a sender id. */
export const ALERT_SENDER_PATTERN = new RegExp(`${SMS_ORIGINATION_NUMBER_PATTERN.source}|${SMS_SENDER_ID_PATTERN.source}`);
export const alertSenderAccountSchema = z.object({ accountId: z.string(), name: z.string(), alertSenderId: z.string().nullable() });
export const alertSenderListSchema = z.object({ accounts: z.array(alertSenderAccountSchema) });
export type AlertSenderAccount = z.infer<typeof alertSenderAccountSchema>;
export const alertSenderRequestSchema = z.object({
  alertSenderId: z
    .string()
    .trim()
    .max(16, keys.InvalidAlertSenderId)
    .refine((v) => v === '' || ALERT_SENDER_PATTERN.test(v), keys.InvalidAlertSenderId)
    .nullable(),
});
export const accountIdParamSchema = z.object({ accountId: z.string().min(1).max(64) });
