/**
 * Every message key the registration schemas and handlers can answer with, for the browser's
 * texts (a test checks each has one in every language). Keys marked "core" already live in the
 * core text module (shared/i18n/en.ts); the registration text module adds the others.
 */
export const registrationMessageKeys = [
  // Customer type and country
  'SelectCustomerType',
  'SelectCountry',
  // IMEI
  'ImeiNumberError',
  'SpecifyValidUnitImei',
  'ImeiNotNumeric',
  'ImeiNot15Digits',
  'InvalidImei',
  'ImeiNotInSystem',
  'ImeiAlreadyRegistered',
  // Lengths (spec section 5)
  'MaxLength7',
  'MaxLength50',
  'MaxLength255',
  'MaxLength500',
  'FullNameMaxLength50',
  // Reseller, company, names
  'SpecifyReseller',
  'SpecifyCompanyName',
  'SpecifyFirstName',
  'SpecifyLastName',
  'SpecifyFullName',
  'SpecifyContactPerson',
  // E-mail and username
  'EmailNotEmpty',
  'EnterValidEmail',
  'SpecifyValidEmail',
  'EmailAlreadyInUse',
  'UsernameAlreadyInUse',
  'InvalidUsername',
  'SpecifyUsername', // core
  // Personal and organisation numbers
  'SpecifyPersonalNum',
  'InvalidPersonalNumLength',
  'InvalidPersonalNum',
  'SpecifyOrgNumber',
  'OrgNumberDigitsAndHyphens',
  // Address
  'SpecifyStreet',
  'SpecifyAddress',
  'SpecifyPostalCode',
  'SpecifyZipcode',
  'PostalCodeNumeric',
  'InvalidUkPostcode',
  'SpecifyCity',
  'SpecifyCountry',
  // Phones
  'PhoneNumCannotBeEmpty',
  'MakeSurePhoneNunIsCorrect',
  'EnterValidPhoneNumber',
  'SpecifyCompanyPhone',
  'SpecifyTelephone',
  // Password
  'SpecifyNewPassword', // core
  'PasswordMustInclude', // core
  'PasswordNotMatch', // core
  // Review: payment and terms
  'SelectPaymentMode',
  'PaymentTypeInvoice',
  'PaymentTypeCard',
  'PaymentTypeDirectDebit',
  'AcceptTerms&Conditions',
  'MustAcceptTerms',
  // Answers
  'YouCanNowLogin', // core
  'ValidationFailed', // core
  'TooLong', // core
  'InvalidType', // core
  'InvalidValue', // core
  'InvalidSubsite', // core
  'TooManyRequests', // rate limit of validate-email
] as const;

export type RegistrationMessageKey = (typeof registrationMessageKeys)[number];
