/**
 * Message keys of the alarm receivers and alert settings (spec sections 5 and 8): the server
 * answers with these keys and the browser translates them (shared/i18n/features/alarms holds each
 * in en, sv and no, except EnterValidEmail, MakeSurePhoneNunIsCorrect, TooLong and NotFound, which
 * live in core).
 */
export const alarmMessageKeys = {
  AlarmReceiverNameRequired: 'AlarmReceiverNameRequired',
  /** Subsite 0: an e-mail address or a phone number. */
  EmailOrPhoneRequired: 'EmailOrPhoneRequired',
  /** Other subsites: e-mail only. */
  AlarmReceiverEmailRequired: 'AlarmReceiverEmailRequired',
  /** A phone number on a subsite other than 0. */
  PhoneNotAvailable: 'PhoneNotAvailable',
  EnterValidEmail: 'EnterValidEmail',
  MakeSurePhoneNunIsCorrect: 'MakeSurePhoneNunIsCorrect',
  DuplicateAlarmReceiverEmail: 'DuplicateAlarmReceiverEmail',
  DuplicateAlarmReceiverPhone: 'DuplicateAlarmReceiverPhone',
  /** Push notifications only for a receiver linked to a user who has a push id. */
  PushNotAvailable: 'PushNotAvailable',
  /** member_id that is not a user of the account. */
  InvalidMember: 'InvalidMember',
  AlarmReceiverNotFound: 'AlarmReceiverNotFound',
  /** A unit of the assignment that is not the account's (or a BLE sensor, none exist yet). */
  UnitsSelectedErrorMsg: 'UnitsSelectedErrorMsg',
  /** A locked unit cannot be added to or removed from a receiver. */
  UnitIsLocked: 'UnitIsLocked',
  UnitsSelectedSuccessMsg: 'UnitsSelectedSuccessMsg',
  AlarmReceiverSuccessMsg: 'AlarmReceiverSuccessMsg',
  AlarmReceiverDeleteSuccessMsg: 'AlarmReceiverDeleteSuccessMsg',
  AlarmSettingSaved: 'AlarmSettingSaved',
  InvalidAlertLanguage: 'InvalidAlertLanguage',
  InvalidAlertTimeZone: 'InvalidAlertTimeZone',
  AlertSettingsSaved: 'AlertSettingsSaved',
  /** Alert sender numbers. */
  InvalidAlertSenderId: 'InvalidAlertSenderId',
  AlertSenderIdSaved: 'AlertSenderIdSaved',
  /** Another change of the same receiver came first. */
  AlarmReceiverChanged: 'AlarmReceiverChanged',
} as const;

export type AlarmMessageKey = (typeof alarmMessageKeys)[keyof typeof alarmMessageKeys];
