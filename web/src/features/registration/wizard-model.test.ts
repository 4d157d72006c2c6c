import { describe, expect, it } from 'vitest';
import { COMPANY, PRIVATE, registerAccountRequestSchema } from '../../../../shared/schemas/registration';
import { wizardPath } from './wizard-flow';
import {
  defaultWizardValues,
  isStepComplete,
  needsInvoiceDialog,
  stepOfField,
  withCountry,
  wizardPayload,
  type WizardValues,
} from './wizard-model';

/** A valid Swedish personnummer (date 1981-12-18, Luhn check digit 6). */
const PERSONNUMMER = '19811218-9876';
const IMEI = '356938035643809';

function privateInSweden(): WizardValues {
  return {
    ...defaultWizardValues(),
    is_private_account: PRIVATE,
    Imei: IMEI,
    reseller: 'Biltillbehör AB',
    comment: 'Bought at the spring fair',
    firstName: 'Ingrid',
    lastName: 'Svensson',
    userName: ' Ingrid.Svensson@Example.com ',
    personal_org_number: PERSONNUMMER,
    address: 'Storgatan 1',
    zipCode: '11122',
    city: 'Stockholm',
    country: 'Sverige',
    phone: '070 123 45 67',
    countryDialCode: '46',
    userPassword: 'Secret-pass1',
    userPassword_confirmation: 'Secret-pass1',
    paymentType: 2,
    terms: true,
  };
}

describe('isStepComplete', () => {
  const verified = { imei: IMEI, email: 'ingrid.svensson@example.com' };

  it('applies the shared step schemas', () => {
    const v = privateInSweden();
    for (const step of wizardPath(PRIVATE, 'SE').filter((s) => s !== 'review')) expect(isStepComplete(step, v, verified), step).toBe(true);
    expect(isStepComplete('welcome', { ...v, is_private_account: null }, verified)).toBe(false);
    expect(isStepComplete('personalNumber', { ...v, personal_org_number: '19811218-9877' }, verified)).toBe(false);
    expect(isStepComplete('phone', { ...v, phone: '4612345678' }, verified)).toBe(false);
    expect(isStepComplete('password', { ...v, userPassword_confirmation: 'Secret-pass2' }, verified)).toBe(false);
  });

  it('counts the IMEI and e-mail steps only once the server accepted exactly those values', () => {
    const v = privateInSweden();
    expect(isStepComplete('imei', v, {})).toBe(false);
    expect(isStepComplete('imei', v, { imei: '356938035643817' })).toBe(false);
    expect(isStepComplete('imei', { ...v, Imei: ` ${IMEI} ` }, verified)).toBe(true);
    expect(isStepComplete('email', v, { email: 'other@example.com' })).toBe(false);
    expect(isStepComplete('email', v, verified)).toBe(true);
  });

  it('needs a payment method among those offered and, on brand 0 only, the terms', () => {
    const v = privateInSweden();
    const brand0 = { offeredPaymentTypes: [1, 2, 3], subsiteId: 0 };
    expect(isStepComplete('review', v, verified, brand0)).toBe(true);
    expect(isStepComplete('review', { ...v, paymentType: 9 }, verified, brand0)).toBe(false);
    expect(isStepComplete('review', { ...v, terms: false }, verified, brand0)).toBe(false);
    expect(isStepComplete('review', { ...v, terms: false, paymentType: 9 }, verified, { offeredPaymentTypes: [], subsiteId: 4 })).toBe(true);
    expect(isStepComplete('review', v, verified)).toBe(false);
  });
});

describe('the phone and the country', () => {
  it('keeps the typed number under a new dial code, which reads it', () => {
    expect(withCountry({ phone: '412 34 567' }, 'NO')).toEqual({ countryCode: 'NO', countryDialCode: '47', phone: '412 34 567' });
    expect(defaultWizardValues()).toMatchObject({ countryCode: 'SE', countryDialCode: '46', phone: '', paymentType: 1 });
  });
});

describe('wizardPayload', () => {
  it('builds a payload the shared schema accepts, for a private user in Sweden on brand 0', () => {
    const v = privateInSweden();
    const payload = wizardPayload(v, wizardPath(PRIVATE, 'SE'), { subsiteId: 0, lang: 'sv', offeredPaymentTypes: [1, 2, 3] });
    expect(payload).toMatchObject({
      form: 'wizard',
      is_private_account: 1,
      userName: 'ingrid.svensson@example.com',
      fullName: 'Ingrid Svensson',
      companyName: '',
      personal_org_number: PERSONNUMMER,
      paymentType: 2,
      terms: true,
      subsiteID: 0,
      lang: 'sv',
    });
    const parsed = registerAccountRequestSchema.safeParse(payload);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data).toMatchObject({ isPrivate: true, personalNumber: '198112189876', phone: '+46701234567', countryDialCode: '46', paymentType: 2 });
  });

  it('sends payment type 0 when no choice applies and pre-accepts the terms where the checkbox is hidden', () => {
    const v = { ...privateInSweden(), terms: false };
    const payload = wizardPayload(v, wizardPath(PRIVATE, 'SE'), { subsiteId: 5, lang: 'en', offeredPaymentTypes: [] });
    expect(payload).toMatchObject({ paymentType: 0, terms: true, subsiteID: 5 });
    expect(registerAccountRequestSchema.safeParse(payload).success).toBe(true);
    // Brand 0 shows the checkbox: unticked stays unticked, and the server refuses it.
    const brand0 = wizardPayload(v, wizardPath(PRIVATE, 'SE'), { subsiteId: 0, lang: 'en', offeredPaymentTypes: [1] });
    expect(brand0.terms).toBe(false);
    expect(registerAccountRequestSchema.safeParse(brand0).error?.issues.map((i) => i.message)).toContain('AcceptTerms&Conditions');
  });

  it('leaves out what the path skipped: a personal number left over from the private path, a company name of a private user', () => {
    const company: WizardValues = {
      ...privateInSweden(),
      is_private_account: COMPANY,
      countryCode: 'NO',
      countryDialCode: '47',
      phone: '412 34 567',
      companyName: 'Fjord Transport AS',
      personal_org_number: '987-654-321',
      paymentType: 2,
    };
    const payload = wizardPayload(company, wizardPath(COMPANY, 'NO'), { subsiteId: 0, lang: 'no', offeredPaymentTypes: [] });
    expect(payload).toMatchObject({ is_private_account: 0, companyName: 'Fjord Transport AS', personal_org_number: '987-654-321', paymentType: 0 });
    const parsed = registerAccountRequestSchema.safeParse(payload);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data).toMatchObject({ isPrivate: false, orgNumber: '987-654-321', accountName: 'Fjord Transport AS' });

    const privateNO = { ...privateInSweden(), countryCode: 'NO' as const, countryDialCode: '47', phone: '+47 412 34 567', companyName: 'Left over AB' };
    const privatePayload = wizardPayload(privateNO, wizardPath(PRIVATE, 'NO'), { subsiteId: 0, lang: 'no', offeredPaymentTypes: [1, 2, 3] });
    expect(privatePayload).toMatchObject({ personal_org_number: '', companyName: '' });
    expect(registerAccountRequestSchema.safeParse(privatePayload).success).toBe(true);
  });
});

describe('server errors and the invoice dialog', () => {
  it('finds the step of each payload field on the path', () => {
    const privateSE = wizardPath(PRIVATE, 'SE');
    const company = wizardPath(COMPANY, 'SE');
    expect(stepOfField('Imei', privateSE)).toBe('imei');
    expect(stepOfField('userName', privateSE)).toBe('email');
    expect(stepOfField('personal_org_number', privateSE)).toBe('personalNumber');
    expect(stepOfField('personal_org_number', company)).toBe('orgNumber');
    expect(stepOfField('companyName', privateSE)).toBeNull();
    expect(stepOfField('zipCode', privateSE)).toBe('address');
    expect(stepOfField('countryDialCode', privateSE)).toBe('phone');
    expect(stepOfField('userPassword_confirmation', privateSE)).toBe('password');
    expect(stepOfField('terms', privateSE)).toBe('review');
    expect(stepOfField('fullName', privateSE)).toBe('name');
    expect(stepOfField('subsiteID', privateSE)).toBeNull();
  });

  it('opens the invoice dialog for a private user with no payment choice', () => {
    expect(needsInvoiceDialog({ is_private_account: PRIVATE }, [])).toBe(true);
    expect(needsInvoiceDialog({ is_private_account: PRIVATE }, [1, 2])).toBe(false);
    expect(needsInvoiceDialog({ is_private_account: COMPANY }, [])).toBe(false);
  });
});
