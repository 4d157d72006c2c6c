/**
 * Message keys of the account administration (users, their unit access, the account's settings;
 * spec sections 5, 6 and 8). The server answers with these keys and the browser translates them
 * (shared/i18n/features/user-accounts holds each in en, sv and no; SpecifyFirstName,
 * SpecifyLastName, EnterValidEmail, UserNotFound, PasswordMustInclude, MaxLength50, TooLong and InvalidTime live
 * in core or the modules that own them).
 */
export const administrationMessageKeys = {
  /** Another user (of any account) already logs in with this e-mail address. */
  UserEmailInUse: 'UserEmailInUse',
  /** The login name is the e-mail address: it is chosen at creation and not changed afterwards. */
  UserEmailCannotChange: 'UserEmailCannotChange',
  /** A unit of `imeis` that is not the account's. */
  UserUnitNotFound: 'UserUnitNotFound',
  /** More changes of unit access in one save than one transaction holds. */
  TooManyUnitChanges: 'TooManyUnitChanges',
  /** Spec section 8: user not found or not owned. */
  UserNotFound: 'UserNotFound',
  /** Spec sections 6 and 8: a user cannot delete their own account. */
  CannotDeleteYourself: 'CannotDeleteYourself',
  /** An admin cannot take the admin flag from themself (the account would keep no admin to give it back). */
  CannotRemoveOwnAdmin: 'CannotRemoveOwnAdmin',
  /** Another admin changed the user's access at the same time. */
  UserChangedMeanwhile: 'UserChangedMeanwhile',
  UserCreated: 'UserCreated',
  UserUpdated: 'UserUpdated',
  UserDeleted: 'UserDeleted',
  /** Spec section 5: default purposes without spelling duplicates. */
  DuplicateDefaultPurpose: 'DuplicateDefaultPurpose',
  DefaultPurposeEmpty: 'DefaultPurposeEmpty',
  DefaultPurposeTooLong: 'DefaultPurposeTooLong',
  TooManyDefaultPurposes: 'TooManyDefaultPurposes',
  InvalidFuelPrice: 'InvalidFuelPrice',
  /** A dated fuel price: above 0 and at most FUEL_PRICE_MAX. */
  FuelPriceOutOfRange: 'FuelPriceOutOfRange',
  FuelPriceDateInvalid: 'FuelPriceDateInvalid',
  FuelPriceTypeInvalid: 'FuelPriceTypeInvalid',
  /** Two prices of one fuel type from the same day. */
  DuplicateFuelPriceDay: 'DuplicateFuelPriceDay',
  TooManyFuelPrices: 'TooManyFuelPrices',
  InvalidEcoWeight: 'InvalidEcoWeight',
  /** Basic-only is part of the subscription: only support changes it. */
  BasicOnlyIsSupportOnly: 'BasicOnlyIsSupportOnly',
  SmsLowBalanceThresholdInvalid: 'SmsLowBalanceThresholdInvalid',
  SettingsSaved: 'SettingsSaved',
} as const;

export type AdministrationMessageKey = (typeof administrationMessageKeys)[keyof typeof administrationMessageKeys];
