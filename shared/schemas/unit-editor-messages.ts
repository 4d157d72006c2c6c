/**
 * Message keys of the unit editor (/user/edit-terminal; spec sections 3, 5, 8 and 9). The server
 * answers a field's problem with one of these in `errors.<field>`; the `unit-editor` text module
 * holds each of them in every language.
 */
export const unitEditorMessageKeys = {
  UnitNotFound: 'UnitNotFound',
  SpecifyUnitName: 'SpecifyUnitName',
  UnitNameTooLong: 'UnitNameTooLong',
  /** Letters and digits only (spec section 5). */
  RegistrationNumberInvalid: 'RegistrationNumberInvalid',
  RegistrationNumberTooLong: 'RegistrationNumberTooLong',
  /** A third change within 24 hours (spec sections 5 and 8). */
  RegistrationNumberChangedTooOften: 'RegistrationNumberChangedTooOften',
  InvalidColour: 'InvalidColour',
  InvalidSymbol: 'InvalidSymbol',
  InvalidVehicleType: 'InvalidVehicleType',
  /** Only support staff change a unit's subscription type. */
  SubscriptionTypeReadOnly: 'SubscriptionTypeReadOnly',
  InvalidSubscriptionType: 'InvalidSubscriptionType',
  SpecifyFuelType: 'SpecifyFuelType',
  /** Consumption per 10 km is required and greater than 0 (spec section 5). */
  ConsumptionMustBePositive: 'ConsumptionMustBePositive',
  ConsumptionTooLarge: 'ConsumptionTooLarge',
  /** Idle consumption, litres (kWh, kg) per hour: above 0 and at most IDLE_CONSUMPTION_MAX, or none. */
  IdleConsumptionInvalid: 'IdleConsumptionInvalid',
  /** CO2 g/km is required with the fuel section, 0 to 2000. */
  SpecifyCo2: 'SpecifyCo2',
  Co2Invalid: 'Co2Invalid',
  InspectionDateInvalid: 'InspectionDateInvalid',
  InvalidEcoSensitivity: 'InvalidEcoSensitivity',
  OverspeedLimitInvalid: 'OverspeedLimitInvalid',
  OverspeedSecondsInvalid: 'OverspeedSecondsInvalid',
  InvalidInput: 'InvalidInput',
  DinLabelTooLong: 'DinLabelTooLong',
  DoutLabelTooLong: 'DoutLabelTooLong',
  InvalidOutputNumber: 'InvalidOutputNumber',
  TimeTillParkedInvalid: 'TimeTillParkedInvalid',
  ReportFrequencyInvalid: 'ReportFrequencyInvalid',
  ReportFrequencyUnitInvalid: 'ReportFrequencyUnitInvalid',
  /** The account or unit is not permitted to change its report frequency (spec sections 6 and 8). */
  DeniedChangeRF: 'DeniedChangeRF',
  /** Support locked the unit's report frequency (spec section 8). */
  FrequencyLocked: 'FrequencyLocked',
  /** Object description and theft info: each text at most its length. */
  TextTooLong: 'TextTooLong',
  YearInvalid: 'YearInvalid',
  LinkInvalid: 'LinkInvalid',
  TooManyLinks: 'TooManyLinks',
  TheftDateInvalid: 'TheftDateInvalid',
  OwnerEmailInvalid: 'OwnerEmailInvalid',
  /** The owner's phone is no valid number of its country (the one phone rule's key for any number, fixed lines too). */
  EnterValidPhoneNumber: 'EnterValidPhoneNumber',
  SpecifyServiceName: 'SpecifyServiceName',
  ServiceNameTooLong: 'ServiceNameTooLong',
  InvalidServiceKind: 'InvalidServiceKind',
  ServiceEveryInvalid: 'ServiceEveryInvalid',
  /** The last service: km or hours (0 or more), or a date for a date interval. */
  LastServiceInvalid: 'LastServiceInvalid',
  TooManyServiceIntervals: 'TooManyServiceIntervals',
  DuplicateServiceInterval: 'DuplicateServiceInterval',
  /** Odometer and operating hours (spec sections 5 and 8): a reading is required when the field is sent, km 0..10 000 000, hours 0..1 000 000. */
  SpecifyOdometer: 'SpecifyOdometer',
  OdometerInvalid: 'OdometerInvalid',
  SpecifyOperatingHours: 'SpecifyOperatingHours',
  OperatingHoursInvalid: 'OperatingHoursInvalid',
  /** An operating-hours reading dated in the future. */
  ReadingInFuture: 'ReadingInFuture',
  /** No such operating-hours entry of the unit (404). */
  EntryNotFound: 'EntryNotFound',
  /** Another save of the same unit came first too often (409). */
  CouldNotSaveUnit: 'CouldNotSaveUnit',
} as const;

export type UnitEditorMessageKey = (typeof unitEditorMessageKeys)[keyof typeof unitEditorMessageKeys];
