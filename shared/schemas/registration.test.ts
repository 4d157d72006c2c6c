/**
 * The account rules of spec section 5, each with its message key: per wizard step, in the classic
 * form and in the register-account payload (which the server applies).
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { imeiFrom } from '../validators/imei';
import '../validators/phone';
import { registrationMessageKeys } from './registration-messages';
import {
  classicFormSchema,
  paymentTypesFor,
  registerAccountRequestSchema,
  registrationMaxLengths,
  remainingCharacters,
  reviewStepSchema,
  usernameSchema,
  validateEmailQuerySchema,
  validateImeiQuerySchema,
  wizardStepSchemas,
  wizardStepsFor,
  namesUnitedKingdom,
  normalizeUkPostcode,
  postalCodeError,
  type RegisterAccountRequest,
} from './registration';

const seenKeys = new Set<string>();

/** `{ field: [key, ...] }` of a failed parse (empty when it passes); every key is remembered. */
function errorsOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  const out: Record<string, string[]> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    seenKeys.add(issue.message);
    (out[issue.path.join('.')] ??= []).push(issue.message);
  }
  return out;
}
/** The first key on `field`, as the browser shows it. */
const keyOn = (schema: z.ZodType, input: unknown, field: string) => errorsOf(schema, input)[field]?.[0];

const IMEI = imeiFrom('35693803100100');
const PASSWORD = 'Secret-pass1';
const PERSONNUMMER = '19850709-9805';

describe('limits', () => {
  it('are the spec values, and the counter counts down from them', () => {
    expect(registrationMaxLengths).toEqual({
      reseller: 255,
      name: 50,
      companyName: 50,
      contactPerson: 50,
      street: 50,
      postalCode: 7,
      city: 50,
      country: 50,
      comment: 500,
      orgNumber: 50,
    });
    expect(remainingCharacters('abc', registrationMaxLengths.city)).toBe(47);
  });
});

describe('wizard steps', () => {
  const s = wizardStepSchemas;

  it('welcome: a customer type, 1 private or 0 company', () => {
    expect(keyOn(s.welcome, {}, 'is_private_account')).toBe('SelectCustomerType');
    expect(keyOn(s.welcome, { is_private_account: 2 }, 'is_private_account')).toBe('SelectCustomerType');
    expect(s.welcome.parse({ is_private_account: true })).toEqual({ is_private_account: 1 });
    expect(s.welcome.parse({ is_private_account: '0' })).toEqual({ is_private_account: 0 });
  });

  it('country: Sweden, Norway or the United Kingdom', () => {
    expect(keyOn(s.country, { countryCode: 'DK' }, 'countryCode')).toBe('SelectCountry');
    expect(s.country.parse({ countryCode: 'NO' })).toEqual({ countryCode: 'NO' });
  });

  it('imei: required, numeric, 15 digits, valid check digit', () => {
    expect(keyOn(s.imei, {}, 'Imei')).toBe('ImeiNumberError');
    expect(keyOn(s.imei, { Imei: '  ' }, 'Imei')).toBe('ImeiNumberError');
    expect(keyOn(s.imei, { Imei: '35693803100100A' }, 'Imei')).toBe('ImeiNotNumeric');
    expect(keyOn(s.imei, { Imei: '3569380310010' }, 'Imei')).toBe('ImeiNot15Digits');
    const wrongCheck = IMEI.slice(0, 14) + String((Number(IMEI[14]) + 1) % 10);
    expect(errorsOf(s.imei, { Imei: wrongCheck })).toEqual({ Imei: ['InvalidImei'] });
    expect(s.imei.parse({ Imei: ` ${IMEI} ` })).toEqual({ Imei: IMEI });
  });

  it('reseller: required, at most 255; comment optional, at most 500', () => {
    expect(keyOn(s.reseller, {}, 'reseller')).toBe('SpecifyReseller');
    expect(keyOn(s.reseller, { reseller: 'x'.repeat(256) }, 'reseller')).toBe('MaxLength255');
    expect(keyOn(s.reseller, { reseller: 'R', comment: 'x'.repeat(501) }, 'comment')).toBe('MaxLength500');
    expect(s.reseller.parse({ reseller: 'x'.repeat(255), comment: null })).toEqual({ reseller: 'x'.repeat(255), comment: '' });
  });

  it('company name: required, at most 50', () => {
    expect(keyOn(s.companyName, { companyName: ' ' }, 'companyName')).toBe('SpecifyCompanyName');
    expect(keyOn(s.companyName, { companyName: 'x'.repeat(51) }, 'companyName')).toBe('MaxLength50');
  });

  it('name: first and last required, at most 50 together', () => {
    expect(errorsOf(s.name, {})).toEqual({ firstName: ['SpecifyFirstName'], lastName: ['SpecifyLastName'] });
    expect(errorsOf(s.name, { firstName: 'x'.repeat(25), lastName: 'y'.repeat(25) })).toEqual({});
    expect(errorsOf(s.name, { firstName: 'x'.repeat(25), lastName: 'y'.repeat(26) })).toEqual({ lastName: ['FullNameMaxLength50'] });
    expect(keyOn(s.name, { firstName: 'x'.repeat(51), lastName: 'y' }, 'firstName')).toBe('MaxLength50');
  });

  it('e-mail: required, valid format, lower-cased', () => {
    expect(keyOn(s.email, {}, 'userName')).toBe('EmailNotEmpty');
    expect(keyOn(s.email, { userName: '' }, 'userName')).toBe('EmailNotEmpty');
    expect(keyOn(s.email, { userName: 'anna@' }, 'userName')).toBe('EnterValidEmail');
    expect(keyOn(s.email, { userName: 'anna example.com' }, 'userName')).toBe('EnterValidEmail');
    expect(keyOn(s.email, { userName: `${'a'.repeat(250)}@x.se` }, 'userName')).toBe('TooLong');
    expect(s.email.parse({ userName: ' Anna.Svensson@Example.COM ' })).toEqual({ userName: 'anna.svensson@example.com' });
  });

  it('personal number: required, 12 digits or 13 with hyphen, valid', () => {
    expect(keyOn(s.personalNumber, {}, 'personal_org_number')).toBe('SpecifyPersonalNum');
    expect(keyOn(s.personalNumber, { personal_org_number: '850709-9805' }, 'personal_org_number')).toBe('InvalidPersonalNumLength');
    expect(keyOn(s.personalNumber, { personal_org_number: '19900230-0029' }, 'personal_org_number')).toBe('InvalidPersonalNum');
    expect(s.personalNumber.parse({ personal_org_number: PERSONNUMMER })).toEqual({ personal_org_number: '198507099805' });
  });

  it('organisation number: required, digits and hyphens, at most 50', () => {
    expect(keyOn(s.orgNumber, { personal_org_number: '' }, 'personal_org_number')).toBe('SpecifyOrgNumber');
    expect(keyOn(s.orgNumber, { personal_org_number: '5560 360793' }, 'personal_org_number')).toBe('OrgNumberDigitsAndHyphens');
    expect(keyOn(s.orgNumber, { personal_org_number: '1'.repeat(51) }, 'personal_org_number')).toBe('MaxLength50');
    expect(s.orgNumber.parse({ personal_org_number: '556036-0793' })).toEqual({ personal_org_number: '556036-0793' });
  });

  it('address: street, numeric postal code of at most 7, city and country required', () => {
    expect(errorsOf(s.address, {})).toEqual({
      address: ['SpecifyStreet'],
      zipCode: ['SpecifyPostalCode'],
      city: ['SpecifyCity'],
      country: ['SpecifyCountry'],
    });
    const ok = { address: 'Storgatan 1', zipCode: '123 45', city: 'Stockholm', country: 'Sverige' };
    expect(errorsOf(s.address, ok)).toEqual({});
    expect(keyOn(s.address, { ...ok, zipCode: 'SW1A 1AA' }, 'zipCode')).toBe('PostalCodeNumeric');
    // A United Kingdom address (country step GB) takes a UK postcode instead.
    const uk = { ...ok, city: 'London', country: 'United Kingdom', countryCode: 'GB' };
    for (const good of ['SW1A 1AA', 'sw1a1aa', 'M1 1AE', 'B33 8TH', 'CR2 6XH', 'DN55 1PT', 'EC1A 1BB', 'GIR 0AA']) {
      expect(errorsOf(s.address, { ...uk, zipCode: good }), good).toEqual({});
    }
    for (const bad of ['12345', 'SW1A', 'SW1A 1AAA', 'QW1 1AA', '1AA 1AA', 'SW1A-1AA']) {
      expect(keyOn(s.address, { ...uk, zipCode: bad }, 'zipCode'), bad).toBe('InvalidUkPostcode');
    }
    expect(keyOn(s.address, { ...uk, zipCode: '' }, 'zipCode')).toBe('SpecifyPostalCode');
    expect(keyOn(s.address, { ...ok, zipCode: '12345678' }, 'zipCode')).toBe('MaxLength7');
    expect(keyOn(s.address, { ...ok, address: 'x'.repeat(51) }, 'address')).toBe('MaxLength50');
    expect(keyOn(s.address, { ...ok, city: 'x'.repeat(51) }, 'city')).toBe('MaxLength50');
    expect(keyOn(s.address, { ...ok, country: 'x'.repeat(51) }, 'country')).toBe('MaxLength50');
  });

  it('phone: a valid mobile number of the dial code\'s country, with or without its 0 or country code', () => {
    expect(keyOn(s.phone, { phone: '', countryDialCode: '46' }, 'phone')).toBe('PhoneNumCannotBeEmpty');
    expect(keyOn(s.phone, { phone: '+46', countryDialCode: '46' }, 'phone')).toBe('PhoneNumCannotBeEmpty');
    expect(keyOn(s.phone, { phone: '+46 46 70 123 45 67', countryDialCode: '46' }, 'phone')).toBe('MakeSurePhoneNunIsCorrect');
    expect(keyOn(s.phone, { phone: '+46 70 123 45', countryDialCode: '46' }, 'phone')).toBe('MakeSurePhoneNunIsCorrect');
    expect(keyOn(s.phone, { phone: '08-123 45 67', countryDialCode: '46' }, 'phone')).toBe('MakeSurePhoneNunIsCorrect');
    for (const phone of ['0701234567', '070 123 45 67', '701234567', '+46 70 123 45 67', '46701234567']) {
      expect(errorsOf(s.phone, { phone, countryDialCode: '46' }), phone).toEqual({});
    }
    expect(errorsOf(s.phone, { phone: '412 34 567', countryDialCode: '47' })).toEqual({});
  });

  it('password: the strength rule, and the confirmation must match', () => {
    expect(keyOn(s.password, { userPassword: '', userPassword_confirmation: '' }, 'userPassword')).toBe('SpecifyNewPassword');
    for (const weak of ['Short-1', 'nouppercase-1', 'NoDigits-here', 'NoSpecial123']) {
      expect(keyOn(s.password, { userPassword: weak, userPassword_confirmation: weak }, 'userPassword')).toBe('PasswordMustInclude');
    }
    expect(errorsOf(s.password, { userPassword: PASSWORD, userPassword_confirmation: 'Secret-pass2' })).toEqual({
      userPassword_confirmation: ['PasswordNotMatch'],
    });
    expect(errorsOf(s.password, { userPassword: PASSWORD, userPassword_confirmation: PASSWORD })).toEqual({});
  });

  it('review: a payment method when offered, and the terms', () => {
    const offered = reviewStepSchema(paymentTypesFor(0).map((p) => p.id));
    expect(errorsOf(offered, { terms: false })).toEqual({ paymentType: ['SelectPaymentMode'], terms: ['AcceptTerms&Conditions'] });
    expect(keyOn(offered, { paymentType: 9, terms: true }, 'paymentType')).toBe('SelectPaymentMode');
    expect(offered.parse({ paymentType: 2, terms: true })).toEqual({ paymentType: 2, terms: true });
    const none = reviewStepSchema([]);
    expect(none.parse({ paymentType: 1, terms: true })).toEqual({ paymentType: 0, terms: true });
  });
});

describe('wizardStepsFor (spec section 4)', () => {
  it('private users in Sweden give their personal number after the e-mail', () => {
    expect(wizardStepsFor({ is_private_account: 1, countryCode: 'SE' })).toEqual([
      'welcome', 'country', 'imei', 'reseller', 'name', 'email', 'personalNumber', 'address', 'phone', 'password', 'review',
    ]);
  });
  it('private users elsewhere go from e-mail to address', () => {
    expect(wizardStepsFor({ is_private_account: 1, countryCode: 'NO' })).toEqual([
      'welcome', 'country', 'imei', 'reseller', 'name', 'email', 'address', 'phone', 'password', 'review',
    ]);
  });
  it('companies name the company after the reseller and give the org number after the e-mail', () => {
    expect(wizardStepsFor({ is_private_account: 0, countryCode: 'SE' })).toEqual([
      'welcome', 'country', 'imei', 'reseller', 'companyName', 'name', 'email', 'orgNumber', 'address', 'phone', 'password', 'review',
    ]);
  });
});

describe('payment types', () => {
  it('exist on brand 0 only', () => {
    expect(paymentTypesFor(0).map((p) => p.id)).toEqual([1, 2, 3]);
    for (const brand of [1, 2, 3, 4, 5, 6, 7]) expect(paymentTypesFor(brand)).toEqual([]);
  });
});

const classic = {
  Imei: IMEI,
  reseller: 'Reseller AB',
  comment: '',
  fullName: 'Anna Svensson',
  userName: 'Anna@Example.com',
  userPassword: PASSWORD,
  userPassword_confirmation: PASSWORD,
  companyName: 'Anna AB',
  acc_company_phone: '0812345678',
  contactPerson: 'Anna Svensson',
  address: 'Storgatan 1',
  zipCode: '12345',
  city: 'Stockholm',
  country: 'Sverige',
  phone: '701234567',
  countryDialCode: '46',
  terms: true,
};

describe('classic form', () => {
  it('accepts a complete form and lower-cases the e-mail', () => {
    expect(classicFormSchema.parse(classic)).toMatchObject({ userName: 'anna@example.com', personal_org_number: '' });
  });

  it('names every missing required field with the classic key', () => {
    expect(errorsOf(classicFormSchema, {})).toEqual({
      Imei: ['SpecifyValidUnitImei'],
      reseller: ['SpecifyReseller'],
      fullName: ['SpecifyFullName'],
      userName: ['SpecifyValidEmail'],
      userPassword: ['SpecifyNewPassword'],
      userPassword_confirmation: ['PasswordNotMatch'],
      acc_company_phone: ['SpecifyCompanyPhone'],
      contactPerson: ['SpecifyContactPerson'],
      address: ['SpecifyAddress'],
      zipCode: ['SpecifyZipcode'],
      city: ['SpecifyCity'],
      country: ['SpecifyCountry'],
      phone: ['SpecifyTelephone'],
      countryDialCode: ['SpecifyTelephone'],
      terms: ['MustAcceptTerms'],
    });
  });

  it.each([
    ['userName', 'anna@', 'SpecifyValidEmail'],
    ['Imei', '123', 'ImeiNot15Digits'],
    ['fullName', 'x'.repeat(51), 'MaxLength50'],
    ['companyName', 'x'.repeat(51), 'MaxLength50'],
    ['contactPerson', 'x'.repeat(51), 'MaxLength50'],
    ['address', 'x'.repeat(51), 'MaxLength50'],
    ['zipCode', '1234A', 'PostalCodeNumeric'],
    ['zipCode', '12345678', 'MaxLength7'],
    ['comment', 'x'.repeat(501), 'MaxLength500'],
    ['acc_company_phone', '081', 'EnterValidPhoneNumber'],
    ['acc_company_phone', 'reception', 'EnterValidPhoneNumber'],
    ['phone', '7012345', 'MakeSurePhoneNunIsCorrect'],
    ['phone', '08-123 45 67', 'MakeSurePhoneNunIsCorrect'],
    ['phone', '070123456a', 'MakeSurePhoneNunIsCorrect'],
    ['userPassword', 'password', 'PasswordMustInclude'],
    ['userPassword_confirmation', 'Other-pass1', 'PasswordNotMatch'],
    ['personal_org_number', 'ab-12', 'OrgNumberDigitsAndHyphens'],
    ['terms', false, 'MustAcceptTerms'],
  ])('%s = %j gives %s', (field, value, key) => {
    expect(keyOn(classicFormSchema, { ...classic, [field]: value }, field)).toBe(key);
  });
});

const wizardPrivate: RegisterAccountRequest = {
  form: 'wizard',
  is_private_account: 1,
  countryCode: 'SE',
  Imei: IMEI,
  reseller: 'Reseller AB',
  comment: 'Via the shop',
  firstName: 'Anna',
  lastName: 'Svensson',
  userName: 'Anna.Svensson@Example.com',
  personal_org_number: PERSONNUMMER,
  address: 'Storgatan 1',
  zipCode: '123 45',
  city: 'Stockholm',
  country: 'Sverige',
  phone: '+46 70 123 45 67',
  countryDialCode: '46',
  userPassword: PASSWORD,
  userPassword_confirmation: PASSWORD,
  paymentType: 2,
  terms: true,
  subsiteID: 0,
  lang: 'sv',
};
const wizardCompany: RegisterAccountRequest = {
  ...wizardPrivate,
  is_private_account: 0,
  companyName: 'Svensson Bygg AB',
  personal_org_number: '556036-0793',
  paymentType: undefined,
};

describe('register-account payload', () => {
  it('normalises a private wizard registration', () => {
    expect(registerAccountRequestSchema.parse(wizardPrivate)).toEqual({
      form: 'wizard',
      isPrivate: true,
      subsiteId: 0,
      lang: 'sv',
      countryCode: 'SE',
      imei: IMEI,
      reseller: 'Reseller AB',
      comment: 'Via the shop',
      firstName: 'Anna',
      lastName: 'Svensson',
      fullName: 'Anna Svensson',
      email: 'anna.svensson@example.com',
      password: PASSWORD,
      accountName: 'Anna Svensson',
      companyName: '',
      companyPhone: '',
      personalNumber: '198507099805',
      orgNumber: null,
      contactPerson: 'Anna Svensson',
      street: 'Storgatan 1',
      zipCode: '123 45',
      city: 'Stockholm',
      country: 'Sverige',
      phone: '+46701234567',
      countryDialCode: '46',
      paymentType: 2,
    });
  });

  it('normalises a company wizard registration: company name and org number, no payment type', () => {
    expect(registerAccountRequestSchema.parse({ ...wizardCompany, paymentType: 1 })).toMatchObject({
      isPrivate: false,
      accountName: 'Svensson Bygg AB',
      companyName: 'Svensson Bygg AB',
      orgNumber: '556036-0793',
      personalNumber: null,
      paymentType: 0,
    });
  });

  it('follows the classic rules for the payload of spec section 3 without a form, the wizard ones for a split name', () => {
    expect(errorsOf(registerAccountRequestSchema, { is_private_account: 0 })).toMatchObject({ fullName: ['SpecifyFullName'], zipCode: ['SpecifyZipcode'] });
    expect(errorsOf(registerAccountRequestSchema, { is_private_account: 1, firstName: 'Anna' })).toMatchObject({ lastName: ['SpecifyLastName'], zipCode: ['SpecifyPostalCode'] });
  });

  it('reports every wizard rule at once, with the wizard keys', () => {
    expect(errorsOf(registerAccountRequestSchema, { form: 'wizard', is_private_account: 1 })).toEqual({
      Imei: ['ImeiNumberError'],
      reseller: ['SpecifyReseller'],
      firstName: ['SpecifyFirstName'],
      lastName: ['SpecifyLastName'],
      userName: ['EmailNotEmpty'],
      personal_org_number: ['SpecifyPersonalNum'],
      address: ['SpecifyStreet'],
      zipCode: ['SpecifyPostalCode'],
      city: ['SpecifyCity'],
      country: ['SpecifyCountry'],
      phone: ['PhoneNumCannotBeEmpty'],
      userPassword: ['SpecifyNewPassword'],
      userPassword_confirmation: ['PasswordNotMatch'],
      paymentType: ['SelectPaymentMode'],
      terms: ['AcceptTerms&Conditions'],
    });
  });

  it('requires the customer type', () => {
    expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, is_private_account: undefined })).toEqual({
      is_private_account: ['SelectCustomerType'],
    });
  });

  describe('personal number', () => {
    it('is required for private users in Sweden', () => {
      expect(keyOn(registerAccountRequestSchema, { ...wizardPrivate, personal_org_number: '' }, 'personal_org_number')).toBe('SpecifyPersonalNum');
      expect(keyOn(registerAccountRequestSchema, { ...wizardPrivate, personal_org_number: '198507099806' }, 'personal_org_number')).toBe(
        'InvalidPersonalNum',
      );
    });
    it('is neither required nor kept for private users elsewhere', () => {
      const norway = { ...wizardPrivate, countryCode: 'NO' as const, personal_org_number: '', phone: '412 34 567', countryDialCode: '47' };
      expect(registerAccountRequestSchema.parse(norway)).toMatchObject({ personalNumber: null, countryCode: 'NO', countryDialCode: '47' });
    });
  });

  it('requires company name and org number from companies', () => {
    expect(errorsOf(registerAccountRequestSchema, { ...wizardCompany, companyName: '', personal_org_number: PERSONNUMMER.replace('-', ' ') })).toEqual({
      companyName: ['SpecifyCompanyName'],
      personal_org_number: ['OrgNumberDigitsAndHyphens'],
    });
  });

  describe('payment type', () => {
    it('is required from private users on brand 0, among the offered methods', () => {
      expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, paymentType: undefined })).toEqual({ paymentType: ['SelectPaymentMode'] });
      expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, paymentType: 0 })).toEqual({ paymentType: ['SelectPaymentMode'] });
      expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, paymentType: 4 })).toEqual({ paymentType: ['SelectPaymentMode'] });
    });
    it('is 0 on other brands and for companies', () => {
      expect(registerAccountRequestSchema.parse({ ...wizardPrivate, subsiteID: 3, paymentType: undefined }).paymentType).toBe(0);
      expect(registerAccountRequestSchema.parse({ ...wizardPrivate, subsiteID: 3, paymentType: 2 }).paymentType).toBe(0);
      expect(registerAccountRequestSchema.parse({ ...wizardCompany }).paymentType).toBe(0);
    });
  });

  it('requires accepted terms (pre-accepted as true on other brands)', () => {
    expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, terms: false })).toEqual({ terms: ['AcceptTerms&Conditions'] });
    expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, terms: undefined })).toEqual({ terms: ['AcceptTerms&Conditions'] });
    expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, subsiteID: 5, terms: true })).toEqual({});
  });

  it('requires equal passwords', () => {
    expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, userPassword_confirmation: 'Secret-pass2' })).toEqual({
      userPassword_confirmation: ['PasswordNotMatch'],
    });
  });

  it('limits first and last name to 50 together', () => {
    expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, firstName: 'A'.repeat(30), lastName: 'B'.repeat(21) })).toEqual({
      lastName: ['FullNameMaxLength50'],
    });
  });

  it('derives the dial code from the country when the phone step did not send one', () => {
    expect(registerAccountRequestSchema.parse({ ...wizardPrivate, countryDialCode: undefined }).countryDialCode).toBe('46');
  });

  it('applies the classic rules to a classic payload and splits the full name', () => {
    const payload = { ...classic, form: 'classic' as const, is_private_account: 0, subsiteID: 2 };
    expect(registerAccountRequestSchema.parse(payload)).toMatchObject({
      form: 'classic',
      firstName: 'Anna',
      lastName: 'Svensson',
      fullName: 'Anna Svensson',
      email: 'anna@example.com',
      accountName: 'Anna AB',
      companyPhone: '+46812345678',
      contactPerson: 'Anna Svensson',
      phone: '+46701234567',
      countryDialCode: '46',
      orgNumber: null,
      personalNumber: null,
      paymentType: 0,
    });
    expect(errorsOf(registerAccountRequestSchema, { form: 'classic', is_private_account: 0 })).toMatchObject({
      Imei: ['SpecifyValidUnitImei'],
      fullName: ['SpecifyFullName'],
      userName: ['SpecifyValidEmail'],
      terms: ['MustAcceptTerms'],
    });
  });

  it('refuses wrong types and unknown values with generic keys', () => {
    expect(errorsOf(registerAccountRequestSchema, { ...wizardPrivate, form: 'fax', subsiteID: 9, Imei: 356938031001002 })).toEqual({
      form: [expect.any(String)],
      subsiteID: ['InvalidSubsite'],
      Imei: [expect.any(String)],
    });
  });
});

describe('public lookups', () => {
  it('validate-imei and validate-email check the format with the wizard keys', () => {
    expect(keyOn(validateImeiQuerySchema, { imei: 'abc' }, 'imei')).toBe('ImeiNotNumeric');
    expect(validateImeiQuerySchema.parse({ imei: IMEI, subsiteID: '3' })).toEqual({ imei: IMEI, subsiteID: 3 });
    expect(keyOn(validateEmailQuerySchema, {}, 'email')).toBe('EmailNotEmpty');
    expect(keyOn(validateEmailQuerySchema, { email: 'x@' }, 'email')).toBe('EnterValidEmail');
    expect(validateEmailQuerySchema.parse({ email: 'A@B.SE' })).toEqual({ email: 'a@b.se' });
  });
});

describe('usernameSchema', () => {
  it('lower-cases; allows a-z, 0-9, - and _, or an e-mail address', () => {
    expect(usernameSchema.parse(' Demo-Admin_2 ')).toBe('demo-admin_2');
    expect(usernameSchema.parse('Anna@Example.com')).toBe('anna@example.com');
    expect(keyOn(usernameSchema, 'anna svensson', '')).toBe('InvalidUsername');
    expect(keyOn(usernameSchema, 'anna.s', '')).toBe('InvalidUsername');
    expect(keyOn(usernameSchema, '', '')).toBe('SpecifyUsername');
  });
});

describe('registrationMessageKeys', () => {
  // Runs last: the tests above have fed seenKeys with every key they met.
  it('lists every key the schemas answered with above', () => {
    expect(seenKeys.size).toBeGreaterThan(45);
    const listed = new Set<string>(registrationMessageKeys);
    const generic = (key: string) => !/^[A-Za-z][A-Za-z0-9&_.]*$/.test(key); // zod's own texts become InvalidType/InvalidValue
    expect([...seenKeys].filter((k) => !generic(k) && !listed.has(k))).toEqual([]);
  });

  it('has no duplicates', () => {
    expect(new Set(registrationMessageKeys).size).toBe(registrationMessageKeys.length);
  });
});

describe('UK postcodes', () => {
  it('are stored in capitals with one space before the inward code', () => {
    expect(normalizeUkPostcode(' sw1a1aa ')).toBe('SW1A 1AA');
    expect(normalizeUkPostcode('m1  1ae')).toBe('M1 1AE');
  });

  it('apply in the classic form when the country names the United Kingdom', () => {
    expect(namesUnitedKingdom('United Kingdom')).toBe(true);
    expect(namesUnitedKingdom(' uk ')).toBe(true);
    expect(namesUnitedKingdom('Storbritannien')).toBe(true);
    expect(namesUnitedKingdom('Sverige')).toBe(false);
    expect(postalCodeError('SW1A 1AA', true, 'SpecifyZipcode')).toBeNull();
    expect(postalCodeError('SW1A 1AA', false, 'SpecifyZipcode')).toBe('PostalCodeNumeric');
  });
});
