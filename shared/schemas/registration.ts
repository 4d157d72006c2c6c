/**
 * Registration payloads (spec sections 2 to 5, docs/api.md Public). One set of rules validates the
 * wizard steps and the classic form in the browser and POST /api/v1/register-account on the
 * server. Messages are the spec's keys; every key is listed in registration-messages.ts.
 *
 * Decisions (the spec leaves them open):
 * - The payload names a form: `form: 'wizard'` (default) or `'classic'`. The two forms ask for
 *   different fields with different keys (the classic form has no customer type, personal or org
 *   number step but a contact person and a company phone), so the server applies the rules of the
 *   form that sent it. Field names are the payload's in both forms and in every wizard step, so a
 *   422 field error lands on the field that caused it.
 * - Names: the wizard sends `firstName` and `lastName` (at most 50 characters together); the
 *   classic form sends `fullName` (at most 50), which the server splits at the first space.
 * - The username is the e-mail address (`userName`, lower-cased): both `email#` and `username#`
 *   are claimed. Usernames that are not e-mail addresses (users an admin creates) keep to the
 *   spec's a-z, 0-9, - and _ (`usernameSchema`).
 * - "In Sweden" is the wizard's country step (`countryCode` SE, NO or GB); `countryDialCode` is the
 *   phone's country. Both forms' `phone` is the number as the user knows it: national (with or
 *   without its trunk 0) or with its country code; it must be a valid mobile number and is stored
 *   as E.164. The classic form's company phone may be a fixed line, read in the same country. One
 *   key refuses an invalid number (INVALID_PHONE, shared/validators/phone-rule.ts).
 * - Payment types exist only on brand 0 (`paymentTypesFor`); there a private customer must pick
 *   one, everyone else gets paymentType 0. Their names are message keys the browser translates.
 * - `terms` must be true; on brands other than 0 the checkbox is hidden and the browser sends true.
 */
import { z } from 'zod';
import { isValidImei } from '../validators/imei';
import { orgNumberError } from '../validators/org-number';
import { normalizePersonalNumber, personalNumberError } from '../validators/personal-number';
import { INVALID_PHONE, phoneError, phoneModel } from '../validators/phone-rule';
import { newPasswordSchema } from './auth';
import { languageSchema, subsiteIdSchema, type Language } from './common';

// Limits (spec sections 5 and 9). The browser shows remaining characters against these.

export const registrationMaxLengths = {
  reseller: 255,
  /** First and last name together. */
  name: 50,
  companyName: 50,
  contactPerson: 50,
  street: 50,
  postalCode: 7,
  city: 50,
  country: 50,
  comment: 500,
  orgNumber: 50,
} as const;
export const EMAIL_MAX_LENGTH = 254;

/** What is left of a field's limit (the remaining-characters counter). */
export function remainingCharacters(value: string, max: number): number {
  return max - value.length;
}

// Choices

export const registrationForms = ['wizard', 'classic'] as const;
export type RegistrationForm = (typeof registrationForms)[number];

/** The wizard's countries; dial codes are the ITU country calling codes. */
export const registrationCountries = [
  { code: 'SE', dialCode: '46' },
  { code: 'NO', dialCode: '47' },
  { code: 'GB', dialCode: '44' },
] as const;
export type RegistrationCountry = (typeof registrationCountries)[number]['code'];
export const DEFAULT_COUNTRY: RegistrationCountry = 'SE';
export const countryCodeSchema = z.enum(['SE', 'NO', 'GB'], 'SelectCountry');
export const dialCodeOf = (country: RegistrationCountry): string =>
  registrationCountries.find((c) => c.code === country)?.dialCode ?? '46';

/** is_private_account: 1 private user, 0 company (also accepted as booleans or '0'/'1'). */
export const PRIVATE = 1;
export const COMPANY = 0;
export const customerTypeSchema = z.preprocess(
  (v) => (v === true || v === '1' ? PRIVATE : v === false || v === '0' ? COMPANY : v),
  z.literal([COMPANY, PRIVATE], 'SelectCustomerType'),
);

export interface PaymentType {
  id: number;
  /** A message key (PaymentTypeInvoice...): the browser shows it in the current language. */
  name: string;
}
const brandZeroPaymentTypes: readonly PaymentType[] = [
  { id: 1, name: 'PaymentTypeInvoice' },
  { id: 2, name: 'PaymentTypeCard' },
  { id: 3, name: 'PaymentTypeDirectDebit' },
];
/** Payment methods a private customer chooses from; none outside brand 0 (paymentType 0 then). */
export function paymentTypesFor(subsiteId: number): PaymentType[] {
  return subsiteId === 0 ? brandZeroPaymentTypes.map((p) => ({ ...p })) : [];
}
/** The wizard preselects the first method (spec: payment type defaults to 1). */
export const DEFAULT_PAYMENT_TYPE = 1;
export const NO_PAYMENT_TYPE = 0;

/** The terms checkbox is shown on the main theme only; elsewhere terms are pre-accepted. */
export const showsTermsCheckbox = (subsiteId: number): boolean => subsiteId === 0;

// Field rules. Each reports one key per field: the first thing wrong.

type KeyOf = (value: string) => string | null;
/** A trimmed string checked by a function that names what is wrong; missing input gets `emptyKey`. */
function checkedText(emptyKey: string, keyOf: KeyOf) {
  return z
    .string(emptyKey)
    .trim()
    .superRefine((value, ctx) => {
      const key = keyOf(value);
      if (key) ctx.addIssue({ code: 'custom', message: key, input: value });
    });
}
const maxKey = (max: number) => `MaxLength${max}`;

export function requiredText(emptyKey: string, max: number) {
  return checkedText(emptyKey, (v) => (!v ? emptyKey : v.length > max ? maxKey(max) : null));
}
/** Optional text: missing or null becomes ''. */
export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, maxKey(max))
    .nullish()
    .transform((v) => v ?? '');
}

export type ImeiFormatError = 'ImeiNotNumeric' | 'ImeiNot15Digits' | 'InvalidImei';
/** IMEI format: numeric, 15 digits, Luhn. Inventory and registration are the server's. */
export function imeiFormatError(imei: string): ImeiFormatError | null {
  if (!/^\d+$/.test(imei)) return 'ImeiNotNumeric';
  if (imei.length !== 15) return 'ImeiNot15Digits';
  return isValidImei(imei) ? null : 'InvalidImei';
}
export const imeiField = (emptyKey: string) => checkedText(emptyKey, (v) => (!v ? emptyKey : imeiFormatError(v)));

const emailFormat = z.email();
export function emailField(emptyKey: string, invalidKey: string) {
  return checkedText(emptyKey, (v) =>
    !v ? emptyKey : v.length > EMAIL_MAX_LENGTH ? 'TooLong' : emailFormat.safeParse(v).success ? null : invalidKey,
  ).transform((v) => v.toLowerCase());
}

/** Login names: lower-cased; a-z, 0-9, - and _, or an e-mail address (the registered admin's). */
export const usernameSchema = z
  .string('SpecifyUsername')
  .trim()
  .toLowerCase()
  .min(1, 'SpecifyUsername')
  .max(EMAIL_MAX_LENGTH, 'TooLong')
  .refine((v) => /^[a-z0-9_-]+$/.test(v) || emailFormat.safeParse(v).success, 'InvalidUsername');

/** A United Kingdom postcode is at most 8 characters with its one space ("SW1A 1AA"). */
export const UK_POSTCODE_MAX_LENGTH = 8;
// Outward code (area, district), a space, inward code; the letters the Royal Mail never uses are left out.
const UK_POSTCODE = /^(GIR 0AA|[A-PR-UWYZ](\d[A-HJKPSTUW\d]?|[A-HK-Y]\d[ABEHMNPRVWXY\d]?) \d[ABD-HJLNP-UW-Z]{2})$/;

/** A UK postcode as written: capitals and one space before the last three characters. */
export function normalizeUkPostcode(value: string): string {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  return compact.length > 3 ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : compact;
}

/** Whether an address's free-text country names the United Kingdom (the classic form has no country picker). */
export function namesUnitedKingdom(country: string): boolean {
  return /^(uk|u\.k\.|gb|united kingdom|great britain|england|scotland|wales|northern ireland|storbritannien|storbritannia|förenade kungariket|det forente kongerike)$/i.test(
    country.trim(),
  );
}

/**
 * The postal code rule of an address: Sweden and Norway (and any other country) numeric, at most
 * 7 with one optional space; the United Kingdom a UK postcode, spacing and case as the user likes.
 */
export function postalCodeError(value: string, unitedKingdom: boolean, emptyKey: string): string | null {
  const v = value.trim();
  if (!v) return emptyKey;
  if (unitedKingdom) return UK_POSTCODE.test(normalizeUkPostcode(v)) && v.length <= UK_POSTCODE_MAX_LENGTH + 1 ? null : 'InvalidUkPostcode';
  if (!/^\d+( \d+)?$/.test(v)) return 'PostalCodeNumeric';
  return v.length > registrationMaxLengths.postalCode ? maxKey(registrationMaxLengths.postalCode) : null;
}

/** The postal code as stored: a UK postcode normalised, any other trimmed. */
export const normalizePostalCode = (value: string, unitedKingdom: boolean): string => (unitedKingdom ? normalizeUkPostcode(value) : value.trim());

/**
 * The postal code on its own: required. Which form it must have depends on the address's country,
 * which the field does not see, so the object's check below decides that. That check is skipped
 * while a field that stops the form's own checks is wrong (an empty password); the empty key shows
 * regardless.
 */
const postalCodeField = (emptyKey: string) => checkedText(emptyKey, (v) => (v ? null : emptyKey));

/** The address's country decides the postal code's form. */
function checkPostalCode(zipCode: unknown, unitedKingdom: boolean, emptyKey: string, ctx: z.RefinementCtx): void {
  if (typeof zipCode !== 'string' || !zipCode.trim()) return;
  const key = postalCodeError(zipCode, unitedKingdom, emptyKey);
  if (key) ctx.addIssue({ code: 'custom', message: key, path: ['zipCode'], input: zipCode });
}

export const personalNumberField = checkedText('SpecifyPersonalNum', personalNumberError).transform(normalizePersonalNumber);
export const orgNumberField = checkedText('SpecifyOrgNumber', orgNumberError);

const passwordFields = {
  userPassword: newPasswordSchema,
  userPassword_confirmation: z.string('PasswordNotMatch'),
};
function passwordsMatch(value: { userPassword: string; userPassword_confirmation: string }, ctx: z.RefinementCtx) {
  if (value.userPassword !== value.userPassword_confirmation) {
    ctx.addIssue({ code: 'custom', message: 'PasswordNotMatch', path: ['userPassword_confirmation'] });
  }
}

function termsField(key: string) {
  return z.preprocess((v) => v === true || v === 1 || v === '1', z.literal(true, key));
}

/** paymentType among the offered ids; with none offered, anything becomes 0. */
export function paymentTypeField(offeredIds: readonly number[]) {
  if (!offeredIds.length) return z.unknown().optional().transform(() => NO_PAYMENT_TYPE);
  return z.coerce
    .number('SelectPaymentMode')
    .refine((id) => offeredIds.includes(id), 'SelectPaymentMode');
}

// The wizard, step by step (spec section 2). Step names are the web's; fields are the payload's.

export const wizardStepSchemas = {
  welcome: z.object({ is_private_account: customerTypeSchema }),
  country: z.object({ countryCode: countryCodeSchema }),
  imei: z.object({ Imei: imeiField('ImeiNumberError') }),
  reseller: z.object({
    reseller: requiredText('SpecifyReseller', registrationMaxLengths.reseller),
    comment: optionalText(registrationMaxLengths.comment),
  }),
  companyName: z.object({ companyName: requiredText('SpecifyCompanyName', registrationMaxLengths.companyName) }),
  name: z
    .object({
      firstName: requiredText('SpecifyFirstName', registrationMaxLengths.name),
      lastName: requiredText('SpecifyLastName', registrationMaxLengths.name),
    })
    .superRefine((v, ctx) => {
      if (v.firstName.length + v.lastName.length > registrationMaxLengths.name) {
        ctx.addIssue({ code: 'custom', message: 'FullNameMaxLength50', path: ['lastName'] });
      }
    }),
  email: z.object({ userName: emailField('EmailNotEmpty', 'EnterValidEmail') }),
  personalNumber: z.object({ personal_org_number: personalNumberField }),
  orgNumber: z.object({ personal_org_number: orgNumberField }),
  // Loose: the postal code's rule reads the country chosen in an earlier step (countryCode).
  address: z
    .looseObject({
      address: requiredText('SpecifyStreet', registrationMaxLengths.street),
      zipCode: postalCodeField('SpecifyPostalCode'),
      city: requiredText('SpecifyCity', registrationMaxLengths.city),
      country: requiredText('SpecifyCountry', registrationMaxLengths.country),
    })
    .check(
      z.superRefine((v: Record<string, unknown>, ctx) => checkPostalCode(v['zipCode'], v['countryCode'] === 'GB', 'SpecifyPostalCode', ctx), {
        when: () => true,
      }),
    ),
  phone: z
    .object({ phone: z.string('PhoneNumCannotBeEmpty'), countryDialCode: z.string(INVALID_PHONE) })
    .superRefine((v, ctx) => {
      // A wizard kept from before held the dial code alone in an untouched field.
      const empty = v.phone.trim() === '' || v.phone.replace(/[\s+]/g, '') === digitsOfDialCode(v.countryDialCode);
      const key = empty ? 'PhoneNumCannotBeEmpty' : phoneError(v.phone, v.countryDialCode);
      if (key) ctx.addIssue({ code: 'custom', message: key, path: ['phone'] });
    }),
  password: z.object(passwordFields).superRefine(passwordsMatch),
} as const;

/** The review step: a payment method among those offered (private users) and the terms. */
export function reviewStepSchema(offeredPaymentTypeIds: readonly number[]) {
  return z.object({ paymentType: paymentTypeField(offeredPaymentTypeIds), terms: termsField('AcceptTerms&Conditions') });
}

export type WizardStep = keyof typeof wizardStepSchemas | 'review';

/** The wizard's steps for a customer type and country, in order (spec section 4). */
export function wizardStepsFor(choice: { is_private_account: number; countryCode: RegistrationCountry }): WizardStep[] {
  const isPrivate = choice.is_private_account === PRIVATE;
  return [
    'welcome',
    'country',
    'imei',
    'reseller',
    ...(isPrivate ? [] : (['companyName'] as const)),
    'name',
    'email',
    ...(isPrivate ? (choice.countryCode === 'SE' ? (['personalNumber'] as const) : []) : (['orgNumber'] as const)),
    'address',
    'phone',
    'password',
    'review',
  ];
}

/** The wizard's temporary notice stays this long (spec section 9). */
export const WIZARD_NOTICE_SECONDS = 5;

// The classic form (spec section 2: Unit, Login info, Customer details).

export const classicFormSchema = z
  .object({
    Imei: imeiField('SpecifyValidUnitImei'),
    reseller: requiredText('SpecifyReseller', registrationMaxLengths.reseller),
    comment: optionalText(registrationMaxLengths.comment),
    fullName: requiredText('SpecifyFullName', registrationMaxLengths.name),
    userName: emailField('SpecifyValidEmail', 'SpecifyValidEmail'),
    ...passwordFields,
    companyName: optionalText(registrationMaxLengths.companyName),
    acc_company_phone: z.string('SpecifyCompanyPhone').trim().min(1, 'SpecifyCompanyPhone'),
    personal_org_number: z
      .string()
      .trim()
      .nullish()
      .transform((v) => v ?? '')
      .superRefine((v, ctx) => {
        const key = v ? orgNumberError(v) : null;
        if (key) ctx.addIssue({ code: 'custom', message: key, input: v });
      }),
    contactPerson: requiredText('SpecifyContactPerson', registrationMaxLengths.contactPerson),
    address: requiredText('SpecifyAddress', registrationMaxLengths.street),
    zipCode: postalCodeField('SpecifyZipcode'),
    city: requiredText('SpecifyCity', registrationMaxLengths.city),
    country: requiredText('SpecifyCountry', registrationMaxLengths.country),
    phone: z.string('SpecifyTelephone'),
    countryDialCode: z.string('SpecifyTelephone'),
    terms: termsField('MustAcceptTerms'),
  })
  .superRefine(passwordsMatch)
  .check(
    // Runs even while other fields are invalid, like the phone's below.
    z.superRefine(
      (v: Record<string, unknown>, ctx) =>
        checkPostalCode(v['zipCode'], namesUnitedKingdom(typeof v['country'] === 'string' ? v['country'] : ''), 'SpecifyZipcode', ctx),
      { when: () => true },
    ),
  )
  .check(
    // Runs even while other fields are invalid, so the phone error shows on the first submit.
    z.superRefine(
      (v: { phone: string; countryDialCode: string; acc_company_phone?: unknown }, ctx) => {
        const key = v.phone.trim() === '' ? 'SpecifyTelephone' : phoneError(v.phone, v.countryDialCode);
        if (key) ctx.addIssue({ code: 'custom', message: key, path: ['phone'] });
        // The company phone is read in the phone's country too; a switchboard may be a fixed line.
        const company = typeof v.acc_company_phone === 'string' ? v.acc_company_phone : '';
        const companyKey = phoneError(company, v.countryDialCode, 'any');
        if (companyKey) ctx.addIssue({ code: 'custom', message: companyKey, path: ['acc_company_phone'] });
      },
      { when: ({ value }) => hasStrings(value, 'phone', 'countryDialCode') },
    ),
  );

const digitsOfDialCode = (value: string): string => value.trim().replace(/^\+/, '');

/** The phones of a payload whose rules passed, as stored: E.164, and the phone's calling code. */
function storedPhones(phone: string, companyPhone: string, dialCode: string): Pick<Registration, 'phone' | 'companyPhone' | 'countryDialCode'> {
  const model = phoneModel();
  const mobile = model.parse(phone, dialCode, 'mobile');
  if (!mobile) throw new Error('storedPhones of a phone that did not pass its rule');
  return {
    phone: mobile.e164,
    countryDialCode: mobile.callingCode,
    companyPhone: companyPhone.trim() ? (model.parse(companyPhone, dialCode, 'any')?.e164 ?? '') : '',
  };
}

function hasStrings(value: unknown, ...keys: string[]): boolean {
  return typeof value === 'object' && value !== null && keys.every((k) => typeof (value as Record<string, unknown>)[k] === 'string');
}

// Public calls

/** Query of `GET /api/v1/validate-imei`. */
export const validateImeiQuerySchema = z.object({
  imei: imeiField('ImeiNumberError'),
  subsiteID: subsiteIdSchema.default(0),
});

/** Query of `GET /api/v1/validate-email`. */
export const validateEmailQuerySchema = z.object({
  email: emailField('EmailNotEmpty', 'EnterValidEmail'),
});

/** Body of `POST /api/v1/subscription-payment-types` (subsiteID picks the brand's methods). */
export const paymentTypesRequestSchema = z.object({
  imei: imeiField('ImeiNumberError'),
  lang: languageSchema.default('en'),
  subsiteID: subsiteIdSchema.default(0),
});

export const paymentTypeSchema = z.object({ id: z.number().int(), name: z.string() });
export const paymentTypesSchema = z.array(paymentTypeSchema);

// POST /api/v1/register-account

/** Raw text: the form's rules below decide whether it is required and what it may hold. */
const raw = z.string().nullish();

const registerAccountFields = z.object({
  /** Absent in the payload of spec section 3, which the classic form's rules check; the wizard sends 'wizard'. */
  form: z.enum(registrationForms).optional(),
  Imei: raw,
  reseller: raw,
  comment: raw,
  fullName: raw,
  firstName: raw,
  lastName: raw,
  /** The e-mail address, which is also the username. */
  userName: raw,
  userPassword: raw,
  userPassword_confirmation: raw,
  companyName: raw,
  acc_company_phone: raw,
  personal_org_number: raw,
  contactPerson: raw,
  address: raw,
  zipCode: raw,
  city: raw,
  country: raw,
  phone: raw,
  countryDialCode: raw,
  countryCode: countryCodeSchema.default(DEFAULT_COUNTRY),
  terms: z.union([z.boolean(), z.literal(0), z.literal(1)]).nullish(),
  subsiteID: subsiteIdSchema.default(0),
  paymentType: z.number().int().nullish(),
  is_private_account: customerTypeSchema,
  /** The language of the welcome e-mail and of the new user. */
  lang: languageSchema.default('en'),
});
type RegisterAccountFields = z.output<typeof registerAccountFields>;

/** A validated registration, normalised for the server. */
export interface Registration {
  form: RegistrationForm;
  isPrivate: boolean;
  subsiteId: number;
  lang: Language;
  countryCode: RegistrationCountry;
  imei: string;
  reseller: string;
  comment: string;
  firstName: string;
  lastName: string;
  fullName: string;
  /** Lower-cased; also the username. */
  email: string;
  password: string;
  /** The account's name: the company, or the private user's full name. */
  accountName: string;
  companyName: string;
  /** E.164, or '' (the wizard has none). */
  companyPhone: string;
  /** 12 digits (private users in Sweden), else null. */
  personalNumber: string | null;
  orgNumber: string | null;
  contactPerson: string;
  street: string;
  zipCode: string;
  city: string;
  country: string;
  /** E.164: '+46701234567'. */
  phone: string;
  /** The phone's calling code without '+': '46'. */
  countryDialCode: string;
  paymentType: number;
}

type Issue = { path: PropertyKey[]; message: string };
/** Runs a rule set over the payload: its output, or its issues with one key per field. */
function runRules<T>(schema: z.ZodType<T>, input: unknown): { data: T; issues: [] } | { data: undefined; issues: Issue[] } {
  const result = schema.safeParse(input);
  if (result.success) return { data: result.data, issues: [] };
  const seen = new Set<string>();
  const issues = result.error.issues.filter((i) => {
    const field = i.path.join('.');
    if (seen.has(field)) return false;
    seen.add(field);
    return true;
  });
  return { data: undefined, issues };
}

/** The form whose rules a payload follows: as named, else the wizard's when it splits the name, else the classic form's. */
export function registrationFormOf(p: Pick<RegisterAccountFields, 'form' | 'firstName' | 'lastName' | 'fullName'>): RegistrationForm {
  if (p.form) return p.form;
  return (p.firstName != null || p.lastName != null) && p.fullName == null ? 'wizard' : 'classic';
}

function toRegistration(fields: RegisterAccountFields, ctx: z.RefinementCtx): Registration {
  const p = { ...fields, form: registrationFormOf(fields) };
  const isPrivate = p.is_private_account === PRIVATE;
  const offered = isPrivate ? paymentTypesFor(p.subsiteID).map((t) => t.id) : [];
  const countryDialCode = p.countryDialCode ?? dialCodeOf(p.countryCode);
  const input = { ...p, countryDialCode };
  const issues: Issue[] = [];
  const run = <T>(schema: z.ZodType<T>): T | undefined => {
    const r = runRules(schema, input);
    issues.push(...r.issues);
    return r.data;
  };
  const common = {
    form: p.form,
    isPrivate,
    subsiteId: p.subsiteID,
    lang: p.lang,
    countryCode: p.countryCode,
    paymentType: run(z.object({ paymentType: paymentTypeField(offered) }))?.paymentType ?? NO_PAYMENT_TYPE,
  };

  let out: Registration | undefined;
  if (p.form === 'wizard') {
    const steps = wizardStepsFor({ is_private_account: p.is_private_account, countryCode: p.countryCode });
    const s = wizardStepSchemas;
    const imei = run(s.imei);
    const reseller = run(s.reseller);
    const company = steps.includes('companyName') ? run(s.companyName) : { companyName: '' };
    const name = run(s.name);
    const email = run(s.email);
    const personal = steps.includes('personalNumber') ? run(s.personalNumber) : undefined;
    const org = steps.includes('orgNumber') ? run(s.orgNumber) : undefined;
    const address = run(s.address);
    const phone = run(s.phone);
    const password = run(s.password);
    const terms = run(z.object({ terms: termsField('AcceptTerms&Conditions') }));
    if (imei && reseller && company && name && email && address && phone && password && terms && !issues.length) {
      const fullName = `${name.firstName} ${name.lastName}`;
      out = {
        ...common,
        imei: imei.Imei,
        reseller: reseller.reseller,
        comment: reseller.comment,
        firstName: name.firstName,
        lastName: name.lastName,
        fullName,
        email: email.userName,
        password: password.userPassword,
        accountName: isPrivate ? fullName : company.companyName,
        companyName: company.companyName,
        personalNumber: personal?.personal_org_number ?? null,
        orgNumber: org?.personal_org_number ?? null,
        contactPerson: fullName,
        street: address.address,
        zipCode: normalizePostalCode(address.zipCode, p.countryCode === 'GB'),
        city: address.city,
        country: address.country,
        ...storedPhones(phone.phone, '', phone.countryDialCode),
      };
    }
  } else {
    const c = run(classicFormSchema);
    if (c && !issues.length) {
      const [firstName = '', ...rest] = c.fullName.split(/\s+/);
      out = {
        ...common,
        imei: c.Imei,
        reseller: c.reseller,
        comment: c.comment,
        firstName,
        lastName: rest.join(' '),
        fullName: c.fullName,
        email: c.userName,
        password: c.userPassword,
        accountName: c.companyName || c.fullName,
        companyName: c.companyName,
        ...storedPhones(c.phone, c.acc_company_phone, c.countryDialCode),
        personalNumber: null,
        orgNumber: c.personal_org_number || null,
        contactPerson: c.contactPerson,
        street: c.address,
        zipCode: normalizePostalCode(c.zipCode, namesUnitedKingdom(c.country)),
        city: c.city,
        country: c.country,
      };
    }
  }
  for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return out ?? (z.NEVER as Registration);
}

/**
 * Body of `POST /api/v1/register-account`: the registration payload of spec section 3 plus
 * `form`, `firstName`/`lastName`, `countryCode` and `lang`. Parses to a `Registration`.
 */
export const registerAccountRequestSchema = registerAccountFields.transform(toRegistration);
/** What the browser sends. */
export type RegisterAccountRequest = z.input<typeof registerAccountRequestSchema>;

export const registerAccountResponseSchema = z.object({ userId: z.string(), accountId: z.string() });
export type RegisterAccountResponse = z.infer<typeof registerAccountResponseSchema>;
