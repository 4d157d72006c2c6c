/**
 * The wizard's data (spec section 3: the registration payload plus customer type, first and last
 * name, postal code and payment method). Form fields carry the payload's names, so the shared step
 * schemas validate them as they are and a server 422 error lands on the field that caused it.
 */
import { brandById } from '../../../../shared/brands';
// The step and payload rules check the phone through the phone model: this page loads it.
import '../../../../shared/validators/phone';
import type { Language } from '../../../../shared/schemas/common';
import {
  COMPANY,
  DEFAULT_COUNTRY,
  DEFAULT_PAYMENT_TYPE,
  NO_PAYMENT_TYPE,
  PRIVATE,
  dialCodeOf,
  reviewStepSchema,
  showsTermsCheckbox,
  wizardStepSchemas,
  type RegisterAccountRequest,
  type RegistrationCountry,
} from '../../../../shared/schemas/registration';
import { isRegistrationCountry, type WizardStep } from './wizard-flow';

export interface WizardValues {
  /** 1 private user, 0 company; null until chosen on the welcome step. */
  is_private_account: number | null;
  countryCode: RegistrationCountry;
  Imei: string;
  reseller: string;
  comment: string;
  companyName: string;
  firstName: string;
  lastName: string;
  /** The e-mail address, which is also the username. */
  userName: string;
  /** Personal identity number (private users in Sweden) or organisation number (companies). */
  personal_org_number: string;
  address: string;
  zipCode: string;
  city: string;
  country: string;
  /** As typed: national (with or without its 0) or with its country code; read in countryDialCode's country. */
  phone: string;
  countryDialCode: string;
  userPassword: string;
  userPassword_confirmation: string;
  paymentType: number;
  terms: boolean;
}

export function defaultWizardValues(): WizardValues {
  const dial = dialCodeOf(DEFAULT_COUNTRY);
  return {
    is_private_account: null,
    countryCode: DEFAULT_COUNTRY,
    Imei: '',
    reseller: '',
    comment: '',
    companyName: '',
    firstName: '',
    lastName: '',
    userName: '',
    personal_org_number: '',
    address: '',
    zipCode: '',
    city: '',
    country: '',
    phone: '',
    countryDialCode: dial,
    userPassword: '',
    userPassword_confirmation: '',
    paymentType: DEFAULT_PAYMENT_TYPE,
    terms: false,
  };
}

/** What the server has accepted: the IMEI (validate-imei) and the e-mail address (validate-email). */
export interface Verified {
  imei?: string;
  email?: string;
}

export const normalizeImei = (imei: string): string => imei.trim();
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A new country reads the typed number in its dial code. */
export function withCountry(values: Pick<WizardValues, 'phone'>, country: RegistrationCountry) {
  return { countryCode: country, countryDialCode: dialCodeOf(country), phone: values.phone };
}

export interface ReviewContext {
  /** Payment method ids offered to this customer (private users on brand 0), empty when none. */
  offeredPaymentTypes: readonly number[];
  subsiteId: number;
}

/**
 * Whether a step is filled in: its shared schema accepts the values, and for the IMEI and e-mail
 * steps the server has accepted exactly these values.
 */
export function isStepComplete(step: WizardStep, values: WizardValues, verified: Verified, review?: ReviewContext): boolean {
  if (step === 'review') {
    if (!review) return false;
    const terms = showsTermsCheckbox(review.subsiteId) ? values.terms : true;
    return reviewStepSchema(review.offeredPaymentTypes).safeParse({ ...values, terms }).success;
  }
  if (!wizardStepSchemas[step].safeParse(values).success) return false;
  if (step === 'imei') return verified.imei === normalizeImei(values.Imei);
  if (step === 'email') return verified.email === normalizeEmail(values.userName);
  return true;
}

/** The form fields each step asks for (the keys of its shared schema). */
export function fieldsOfStep(step: WizardStep): string[] {
  if (step === 'review') return ['paymentType', 'terms'];
  return Object.keys(wizardStepSchemas[step].shape);
}

/** The step of the path that asks for a payload field, or null for a field no step shows. */
export function stepOfField(field: string, path: readonly WizardStep[]): WizardStep | null {
  if (field === 'fullName') return path.includes('name') ? 'name' : null;
  return path.find((step) => fieldsOfStep(step).includes(field)) ?? null;
}

/**
 * The payload of POST /api/v1/register-account. Fields of steps the path skipped are sent empty
 * (a company's personal number left over from a change of customer type must not travel); terms
 * are pre-accepted where the checkbox is hidden; paymentType is 0 when no choice applies.
 */
export function wizardPayload(
  values: WizardValues,
  path: readonly WizardStep[],
  ctx: { subsiteId: number; lang: Language; offeredPaymentTypes: readonly number[] },
): RegisterAccountRequest {
  const isPrivate = values.is_private_account === PRIVATE;
  const personalOrOrg = path.includes('personalNumber') || path.includes('orgNumber');
  return {
    form: 'wizard',
    is_private_account: isPrivate ? PRIVATE : COMPANY,
    countryCode: isRegistrationCountry(values.countryCode) ? values.countryCode : DEFAULT_COUNTRY,
    Imei: normalizeImei(values.Imei),
    reseller: values.reseller,
    comment: values.comment,
    companyName: isPrivate ? '' : values.companyName,
    firstName: values.firstName,
    lastName: values.lastName,
    fullName: `${values.firstName.trim()} ${values.lastName.trim()}`.trim(),
    userName: normalizeEmail(values.userName),
    userPassword: values.userPassword,
    userPassword_confirmation: values.userPassword_confirmation,
    personal_org_number: personalOrOrg ? values.personal_org_number : '',
    contactPerson: `${values.firstName.trim()} ${values.lastName.trim()}`.trim(),
    address: values.address,
    zipCode: values.zipCode,
    city: values.city,
    country: values.country,
    phone: values.phone,
    countryDialCode: values.countryDialCode,
    terms: showsTermsCheckbox(ctx.subsiteId) ? values.terms : true,
    subsiteID: brandById(ctx.subsiteId).id,
    paymentType: isPrivate && ctx.offeredPaymentTypes.length > 0 ? values.paymentType : NO_PAYMENT_TYPE,
    lang: ctx.lang,
  };
}

/**
 * Spec section 4: a private user on brand 0 with payment options chooses one on the review step;
 * every other private user is told in the invoice dialog that the subscription is invoiced, and
 * registers from there.
 */
export function needsInvoiceDialog(values: Pick<WizardValues, 'is_private_account'>, offeredPaymentTypes: readonly number[]): boolean {
  return values.is_private_account === PRIVATE && offeredPaymentTypes.length === 0;
}
