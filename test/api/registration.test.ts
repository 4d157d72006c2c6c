/**
 * Registration over HTTP against the embedded runtime: validate-imei, validate-email (with its
 * rate limit), subscription-payment-types and register-account, every account rule of spec
 * section 5 with its message key, and a registered customer who can log in.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPorts, overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { VALIDATE_EMAIL_LIMIT } from '../../functions/registration/get-validate-email';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei, demoUsers } from '../../infra/local/seed';
import type { RegisterAccountRequest } from '../../shared/schemas/registration';
import { imeiFrom } from '../../shared/validators/imei';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';
import { loginAs } from '../support/sessions';
import { wizardPrivate as privateRegistration } from '../support/registration';

let rt: EmbeddedRuntime;
beforeAll(async () => {
  rt = await startRuntime();
});
afterAll(async () => {
  await rt?.stop();
});

interface Answer {
  status: number;
  body: { success: boolean; data?: unknown; message?: string; errors?: Record<string, string[]> | string };
  headers: Headers;
}
async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const res = await apiFetch(`${rt.url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'], headers: res.headers };
}
const get = (path: string, query: Record<string, string>) => call('GET', `${path}?${new URLSearchParams(query).toString()}`);
const post = (path: string, body: unknown) => call('POST', path, body);

const PASSWORD = 'Secret-pass1';
/** A valid IMEI that no inventory holds (another TAC than the demo fleet's). */
const UNKNOWN_IMEI = imeiFrom('35000000999999');
const wrongCheckDigit = (imei: string) => imei.slice(0, 14) + String((Number(imei[14]) + 1) % 10);

const wizardPrivate = (imei: string, email: string, overrides: Partial<RegisterAccountRequest> = {}): RegisterAccountRequest =>
  privateRegistration(imei, email, PASSWORD, overrides);

async function item(table: Parameters<typeof tableName>[0], key: Record<string, string>) {
  const out = await dynamo().send(new GetCommand({ TableName: tableName(table), Key: key, ConsistentRead: true }));
  return out.Item;
}

describe('GET /api/v1/validate-imei', () => {
  it.each([
    ['', 'ImeiNumberError'],
    ['35693803A100100', 'ImeiNotNumeric'],
    ['3569380310010', 'ImeiNot15Digits'],
    [wrongCheckDigit(demoImei(100)), 'InvalidImei'],
    [UNKNOWN_IMEI, 'ImeiNotInSystem'],
    [demoImei(0), 'ImeiAlreadyRegistered'],
  ])('%j: 422 errors.imei %s', async (imei, key) => {
    const res = await get('/api/v1/validate-imei', { imei, subsiteID: '0' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: 'ValidationFailed', errors: { imei: [key] } });
  });

  it('answers 422 without an imei at all', async () => {
    const res = await call('GET', '/api/v1/validate-imei');
    expect(res.body.errors).toEqual({ imei: ['ImeiNumberError'] });
  });

  it('accepts a free IMEI of the inventory', async () => {
    const res = await get('/api/v1/validate-imei', { imei: demoImei(109), subsiteID: '0' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: null });
  });
});

describe('GET /api/v1/validate-email', () => {
  it.each([
    ['', 'EmailNotEmpty'],
    ['anna@', 'EnterValidEmail'],
    [demoUsers.admin.email, 'EmailAlreadyInUse'],
    [demoUsers.user.email.toUpperCase(), 'EmailAlreadyInUse'],
  ])('%j: 422 errors.email %s', async (email, key) => {
    const res = await get('/api/v1/validate-email', { email });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email: [key] });
  });

  it('accepts a free address', async () => {
    const res = await get('/api/v1/validate-email', { email: 'Someone.New@Example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: null });
  });
});

describe('POST /api/v1/subscription-payment-types', () => {
  it('offers invoice, card and direct debit on brand 0 for a free IMEI', async () => {
    const res = await post('/api/v1/subscription-payment-types', { imei: demoImei(108), lang: 'sv', subsiteID: 0 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: 1, name: 'PaymentTypeInvoice' },
      { id: 2, name: 'PaymentTypeCard' },
      { id: 3, name: 'PaymentTypeDirectDebit' },
    ]);
  });

  it('offers nothing on other brands', async () => {
    const res = await post('/api/v1/subscription-payment-types', { imei: demoImei(108), lang: 'en', subsiteID: 4 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it.each([
    ['123', 'ImeiNot15Digits'],
    [UNKNOWN_IMEI, 'ImeiNotInSystem'],
    [demoImei(1), 'ImeiAlreadyRegistered'],
  ])('refuses %s with errors.imei %s', async (imei, key) => {
    const res = await post('/api/v1/subscription-payment-types', { imei, lang: 'en' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ imei: [key] });
  });
});

describe('POST /api/v1/register-account: the rules of spec section 5', () => {
  const base = wizardPrivate(demoImei(107), 'rules@example.com');
  const company: RegisterAccountRequest = { ...base, is_private_account: 0, companyName: 'Bygg AB', personal_org_number: '556036-0793' };
  const classic: RegisterAccountRequest = {
    form: 'classic',
    is_private_account: 0,
    Imei: demoImei(107),
    reseller: 'Bilia',
    fullName: 'Anna Svensson',
    userName: 'rules@example.com',
    userPassword: PASSWORD,
    userPassword_confirmation: PASSWORD,
    companyName: 'Bygg AB',
    acc_company_phone: '0812345678',
    contactPerson: 'Anna Svensson',
    address: 'Storgatan 1',
    zipCode: '12345',
    city: 'Stockholm',
    country: 'Sverige',
    phone: '701234567',
    countryDialCode: '46',
    terms: true,
    subsiteID: 0,
  };

  it.each<[string, string, string, RegisterAccountRequest]>([
    // IMEI
    ['IMEI missing', 'Imei', 'ImeiNumberError', { ...base, Imei: '' }],
    ['IMEI not numeric', 'Imei', 'ImeiNotNumeric', { ...base, Imei: '35693803A100100' }],
    ['IMEI not 15 digits', 'Imei', 'ImeiNot15Digits', { ...base, Imei: '35693803100' }],
    ['IMEI check digit', 'Imei', 'InvalidImei', { ...base, Imei: wrongCheckDigit(demoImei(107)) }],
    ['IMEI not in the system', 'Imei', 'ImeiNotInSystem', { ...base, Imei: UNKNOWN_IMEI }],
    ['IMEI registered', 'Imei', 'ImeiAlreadyRegistered', { ...base, Imei: demoImei(2) }],
    ['classic IMEI missing', 'Imei', 'SpecifyValidUnitImei', { ...classic, Imei: undefined }],
    // Reseller and comment
    ['reseller missing', 'reseller', 'SpecifyReseller', { ...base, reseller: ' ' }],
    ['reseller over 255', 'reseller', 'MaxLength255', { ...base, reseller: 'r'.repeat(256) }],
    ['comment over 500', 'comment', 'MaxLength500', { ...base, comment: 'c'.repeat(501) }],
    // Names
    ['company name missing', 'companyName', 'SpecifyCompanyName', { ...company, companyName: '' }],
    ['company name over 50', 'companyName', 'MaxLength50', { ...company, companyName: 'c'.repeat(51) }],
    ['first name missing', 'firstName', 'SpecifyFirstName', { ...base, firstName: '' }],
    ['last name missing', 'lastName', 'SpecifyLastName', { ...base, lastName: undefined }],
    ['first plus last over 50', 'lastName', 'FullNameMaxLength50', { ...base, firstName: 'a'.repeat(25), lastName: 'b'.repeat(26) }],
    ['classic full name missing', 'fullName', 'SpecifyFullName', { ...classic, fullName: '' }],
    ['classic full name over 50', 'fullName', 'MaxLength50', { ...classic, fullName: 'f'.repeat(51) }],
    ['classic contact missing', 'contactPerson', 'SpecifyContactPerson', { ...classic, contactPerson: '' }],
    ['classic contact over 50', 'contactPerson', 'MaxLength50', { ...classic, contactPerson: 'c'.repeat(51) }],
    // E-mail
    ['e-mail missing', 'userName', 'EmailNotEmpty', { ...base, userName: '' }],
    ['e-mail invalid', 'userName', 'EnterValidEmail', { ...base, userName: 'anna@@example.com' }],
    ['e-mail in use', 'userName', 'EmailAlreadyInUse', { ...base, userName: demoUsers.admin.email.toUpperCase() }],
    ['classic e-mail invalid', 'userName', 'SpecifyValidEmail', { ...classic, userName: 'anna' }],
    // Personal and organisation numbers
    ['personal number missing (private, Sweden)', 'personal_org_number', 'SpecifyPersonalNum', { ...base, personal_org_number: '' }],
    ['personal number length', 'personal_org_number', 'InvalidPersonalNumLength', { ...base, personal_org_number: '850709-9805' }],
    ['personal number date', 'personal_org_number', 'InvalidPersonalNum', { ...base, personal_org_number: '19900230-0029' }],
    ['personal number check digit', 'personal_org_number', 'InvalidPersonalNum', { ...base, personal_org_number: '198507099806' }],
    ['org number missing', 'personal_org_number', 'SpecifyOrgNumber', { ...company, personal_org_number: '' }],
    ['org number characters', 'personal_org_number', 'OrgNumberDigitsAndHyphens', { ...company, personal_org_number: '556036/0793' }],
    ['org number over 50', 'personal_org_number', 'MaxLength50', { ...company, personal_org_number: '1'.repeat(51) }],
    // Address
    ['street missing', 'address', 'SpecifyStreet', { ...base, address: '' }],
    ['street over 50', 'address', 'MaxLength50', { ...base, address: 's'.repeat(51) }],
    ['postal code missing', 'zipCode', 'SpecifyPostalCode', { ...base, zipCode: '' }],
    ['postal code not numeric', 'zipCode', 'PostalCodeNumeric', { ...base, zipCode: '12A45' }],
    ['postal code over 7', 'zipCode', 'MaxLength7', { ...base, zipCode: '12345678' }],
    ['city missing', 'city', 'SpecifyCity', { ...base, city: '' }],
    ['city over 50', 'city', 'MaxLength50', { ...base, city: 'c'.repeat(51) }],
    ['country missing', 'country', 'SpecifyCountry', { ...base, country: '' }],
    ['country over 50', 'country', 'MaxLength50', { ...base, country: 'c'.repeat(51) }],
    ['classic address missing', 'address', 'SpecifyAddress', { ...classic, address: '' }],
    ['classic zip missing', 'zipCode', 'SpecifyZipcode', { ...classic, zipCode: '' }],
    ['classic city missing', 'city', 'SpecifyCity', { ...classic, city: '' }],
    ['classic country missing', 'country', 'SpecifyCountry', { ...classic, country: '' }],
    // Phones
    ['wizard phone missing', 'phone', 'PhoneNumCannotBeEmpty', { ...base, phone: '' }],
    ['wizard phone is the dial code alone', 'phone', 'PhoneNumCannotBeEmpty', { ...base, phone: '+46' }],
    ['wizard phone repeats 46', 'phone', 'MakeSurePhoneNunIsCorrect', { ...base, phone: '+46 46 70 123 45 67' }],
    ['wizard phone a digit short', 'phone', 'MakeSurePhoneNunIsCorrect', { ...base, phone: '070 123 45 6' }],
    ['wizard phone a fixed line', 'phone', 'MakeSurePhoneNunIsCorrect', { ...base, phone: '08-123 45 67' }],
    ['wizard phone Swedish number read as Norwegian', 'phone', 'MakeSurePhoneNunIsCorrect', { ...base, phone: '0701234567', countryDialCode: '47' }],
    ['company phone missing', 'acc_company_phone', 'SpecifyCompanyPhone', { ...classic, acc_company_phone: '' }],
    ['company phone no number', 'acc_company_phone', 'EnterValidPhoneNumber', { ...classic, acc_company_phone: '08 1' }],
    ['phone missing', 'phone', 'SpecifyTelephone', { ...classic, phone: '' }],
    ['phone letters', 'phone', 'MakeSurePhoneNunIsCorrect', { ...classic, phone: '070-CALL-ME' }],
    ['phone under 8 digits', 'phone', 'MakeSurePhoneNunIsCorrect', { ...classic, phone: '7012345' }],
    ['phone a fixed line', 'phone', 'MakeSurePhoneNunIsCorrect', { ...classic, phone: '08-123 45 67' }],
    // Password
    ['password missing', 'userPassword', 'SpecifyNewPassword', { ...base, userPassword: '' }],
    ['password too weak', 'userPassword', 'PasswordMustInclude', { ...base, userPassword: 'secret-pass', userPassword_confirmation: 'secret-pass' }],
    ['password 7 characters', 'userPassword', 'PasswordMustInclude', { ...base, userPassword: 'Sec-p1x', userPassword_confirmation: 'Sec-p1x' }],
    ['confirmation differs', 'userPassword_confirmation', 'PasswordNotMatch', { ...base, userPassword_confirmation: 'Secret-pass2' }],
    ['classic password missing', 'userPassword', 'SpecifyNewPassword', { ...classic, userPassword: undefined }],
    // Review
    ['payment type missing (private, brand 0)', 'paymentType', 'SelectPaymentMode', { ...base, paymentType: undefined }],
    ['payment type not offered', 'paymentType', 'SelectPaymentMode', { ...base, paymentType: 7 }],
    ['terms not accepted', 'terms', 'AcceptTerms&Conditions', { ...base, terms: false }],
    ['classic terms not accepted', 'terms', 'MustAcceptTerms', { ...classic, terms: false }],
    // Customer type
    ['customer type missing', 'is_private_account', 'SelectCustomerType', { ...base, is_private_account: undefined as unknown as 1 }],
  ])('%s: 422 errors.%s has %s', async (_rule, field, key, payload) => {
    const res = await post('/api/v1/register-account', payload);
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect((res.body.errors as Record<string, string[]>)[field]).toEqual([key]);
  });

  it('answers every wrong field of one payload at once', async () => {
    const res = await post('/api/v1/register-account', { form: 'wizard', is_private_account: 0 });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors as object).sort()).toEqual(
      ['Imei', 'reseller', 'companyName', 'firstName', 'lastName', 'userName', 'personal_org_number', 'address', 'zipCode', 'city', 'country', 'phone', 'userPassword', 'userPassword_confirmation', 'terms'].sort(),
    );
  });

  it('left nothing behind: the IMEI used above is still free', async () => {
    expect(await item('inventory', { imei: demoImei(107) })).toMatchObject({ registered: false });
    expect(await item('uniques', { key: 'email#rules@example.com' })).toBeUndefined();
  });
});

describe('POST /api/v1/register-account: registering', () => {
  const email = 'Anna.Svensson@Example.com';
  const stored = email.toLowerCase();
  let accountId = '';
  let userId = '';

  it('creates account, admin user and unit, and answers 201 YouCanNowLogin', async () => {
    const res = await post('/api/v1/register-account', wizardPrivate(demoImei(100), email));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'YouCanNowLogin' });
    ({ accountId, userId } = res.body.data as { accountId: string; userId: string });

    expect(await item('accounts', { accountId })).toMatchObject({
      accountId,
      parentId: null,
      type: 'private',
      name: 'Anna Svensson',
      subsiteId: 0,
      features: { realtimeMap: true, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: false },
      smsCredits: 0,
      retentionDays: 395,
      personalNumber: '198507099805',
      contactPerson: 'Anna Svensson',
      phone: '+46701234567',
      street: 'Storgatan 1',
      zipCode: '123 45',
      city: 'Stockholm',
      country: 'Sverige',
      reseller: 'Bilia',
      comment: 'Bought in the shop',
      paymentType: 1,
    });
    expect(await item('users', { userId })).toMatchObject({
      userId,
      accountId,
      username: stored,
      email: stored,
      firstName: 'Anna',
      lastName: 'Svensson',
      phone: '+46701234567',
      lang: 'sv',
      subsiteId: 0,
      isAdmin: true,
      isSupport: false,
      enableTwoFactorAuth: false,
    });
    const units = await dynamo().send(
      new QueryCommand({ TableName: tableName('units'), IndexName: 'byAccount', KeyConditionExpression: 'accountId = :a', ExpressionAttributeValues: { ':a': accountId } }),
    );
    expect(units.Items).toEqual([expect.objectContaining({ imei: demoImei(100), accountId, name: demoImei(100), protocol: 'native' })]);
    expect(await item('inventory', { imei: demoImei(100) })).toMatchObject({ registered: true, accountId });
    expect(await item('uniques', { key: `email#${stored}` })).toEqual({ key: `email#${stored}`, userId });
    expect(await item('uniques', { key: `username#${stored}` })).toEqual({ key: `username#${stored}`, userId });
    expect(await item('uniques', { key: `imei#${demoImei(100)}` })).toEqual({ key: `imei#${demoImei(100)}`, accountId });
  });

  it('lets the new admin log in with the e-mail and password and reach the portal', async () => {
    expect(await getPorts().identity.authenticate(email, 'Wrong-pass1')).toBeNull();
    const session = await loginAs(stored, PASSWORD);
    expect(session.userId).toBe(userId);
    const res = await apiFetch(`${rt.url}/api/v1/user/settings`, { headers: { authorization: `Bearer ${session.token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({ realtime_map: true, enable_car_booking: false, is_admin: true });
  });

  it('logs in through POST /api/v1/login with the e-mail, in any case', async () => {
    const res = await post('/api/v1/login', { username: email.toUpperCase(), password: PASSWORD, subsiteid: 0, remember_me: false });
    expect(res.status).toBe(200);
    const user = (res.body.data as { user: { ID: string; token: string } }).user;
    expect(user.ID).toBe(userId);
    const settings = await apiFetch(`${rt.url}/api/v1/user/settings`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(settings.status).toBe(200);
  });

  it('sends the welcome e-mail in the chosen language', async () => {
    const res = await get('/api/dev/outbox', { to: stored, kind: 'email' });
    const messages = res.body.data as Array<{ subject: string; text: string }>;
    expect(messages).toHaveLength(1);
    expect(messages[0]?.subject).toBe('Välkommen till TrackPortal');
    expect(messages[0]?.text).toContain(stored);
  });

  it('now reports the IMEI and the e-mail as taken', async () => {
    expect((await get('/api/v1/validate-imei', { imei: demoImei(100) })).body.errors).toEqual({ imei: ['ImeiAlreadyRegistered'] });
    expect((await get('/api/v1/validate-email', { email })).body.errors).toEqual({ email: ['EmailAlreadyInUse'] });

    const sameImei = await post('/api/v1/register-account', wizardPrivate(demoImei(100), 'other@example.com'));
    expect(sameImei.status).toBe(422);
    expect(sameImei.body.errors).toEqual({ Imei: ['ImeiAlreadyRegistered'] });
    const sameEmail = await post('/api/v1/register-account', wizardPrivate(demoImei(101), email.toUpperCase()));
    expect(sameEmail.status).toBe(422);
    expect(sameEmail.body.errors).toEqual({ userName: ['EmailAlreadyInUse'] });
    const both = await post('/api/v1/register-account', wizardPrivate(demoImei(100), email));
    expect(both.body.errors).toEqual({ Imei: ['ImeiAlreadyRegistered'], userName: ['EmailAlreadyInUse'] });
  });

  it('registers a company on another brand: org number, no payment type, Norwegian user', async () => {
    const res = await post('/api/v1/register-account', {
      ...wizardPrivate(demoImei(101), 'firma@example.no'),
      is_private_account: 0,
      countryCode: 'NO',
      companyName: 'Fjord Transport AS',
      personal_org_number: '923609016',
      phone: '412 34 567',
      countryDialCode: '47',
      paymentType: undefined,
      subsiteID: 3,
      lang: 'no',
    });
    expect(res.status).toBe(201);
    const ids = res.body.data as { accountId: string; userId: string };
    expect(await item('accounts', { accountId: ids.accountId })).toMatchObject({
      type: 'company',
      name: 'Fjord Transport AS',
      orgNumber: '923609016',
      subsiteId: 3,
      paymentType: 0,
      phone: '+4741234567',
      countryCode: 'NO',
    });
    expect(await item('users', { userId: ids.userId })).toMatchObject({ lang: 'no', subsiteId: 3, isAdmin: true });
  });

  it('accepts the payload of spec section 3 exactly as written: fullName, national phone beside countryDialCode, no form', async () => {
    const payload = {
      Imei: demoImei(105),
      reseller: 'Bilia',
      comment: '',
      fullName: 'Eva Lind',
      userName: 'eva.lind@example.com',
      userPassword: PASSWORD,
      userPassword_confirmation: PASSWORD,
      companyName: 'Lind Åkeri AB',
      acc_company_phone: '0812345678',
      personal_org_number: '556036-0793',
      contactPerson: 'Eva Lind',
      address: 'Hamngatan 3',
      zipCode: '11147',
      city: 'Stockholm',
      country: 'Sverige',
      phone: '701234567',
      countryDialCode: '+46',
      terms: 1,
      subsiteID: 0,
      paymentType: 0,
      is_private_account: 0,
    };
    const res = await post('/api/v1/register-account', payload);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ids = res.body.data as { accountId: string; userId: string };
    expect(await item('accounts', { accountId: ids.accountId })).toMatchObject({ name: 'Lind Åkeri AB', phone: '+46701234567', zipCode: '11147' });
    expect(await item('users', { userId: ids.userId })).toMatchObject({ firstName: 'Eva', lastName: 'Lind', email: 'eva.lind@example.com' });
  });

  it.each([
    ['0701234567', demoImei(103)],
    ['0046 70 123 45 67', demoImei(104)],
  ])('registers the wizard phone %s with SE as +46701234567, on the account and its user', async (phone, imei) => {
    const res = await post('/api/v1/register-account', wizardPrivate(imei, `phone-${imei}@example.com`, { phone, countryDialCode: '46' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ids = res.body.data as { accountId: string; userId: string };
    expect(await item('accounts', { accountId: ids.accountId })).toMatchObject({ phone: '+46701234567' });
    expect(await item('users', { userId: ids.userId })).toMatchObject({ phone: '+46701234567' });
  });

  it('registers a United Kingdom address with a UK postcode, stored as written by the Royal Mail', async () => {
    const res = await post('/api/v1/register-account', {
      ...wizardPrivate(demoImei(106), 'james@example.co.uk'),
      countryCode: 'GB',
      personal_org_number: undefined,
      address: '10 Downing Street',
      zipCode: 'sw1a2aa',
      city: 'London',
      country: 'United Kingdom',
      phone: '+44 7911 123456',
      countryDialCode: '44',
      lang: 'en',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ids = res.body.data as { accountId: string };
    expect(await item('accounts', { accountId: ids.accountId })).toMatchObject({ zipCode: 'SW1A 2AA', countryCode: 'GB' });
    // A Swedish postcode is not a UK one.
    const wrong = await post('/api/v1/register-account', { ...wizardPrivate(demoImei(106), 'james2@example.co.uk'), countryCode: 'GB', zipCode: '123 45' });
    expect(wrong.body.errors).toMatchObject({ zipCode: ['InvalidUkPostcode'] });
  });

  it('registers with the classic form', async () => {
    const res = await post('/api/v1/register-account', {
      form: 'classic',
      is_private_account: 0,
      Imei: demoImei(102),
      reseller: 'Bilia',
      fullName: 'Per Olof Berg',
      userName: 'per@example.com',
      userPassword: PASSWORD,
      userPassword_confirmation: PASSWORD,
      companyName: '',
      acc_company_phone: '031-12 34 56',
      contactPerson: 'Per Berg',
      address: 'Vägen 2',
      zipCode: '41101',
      city: 'Göteborg',
      country: 'Sverige',
      phone: '0701234567',
      countryDialCode: '46',
      terms: true,
      subsiteID: 1,
    });
    expect(res.status).toBe(201);
    const ids = res.body.data as { accountId: string; userId: string };
    expect(await item('users', { userId: ids.userId })).toMatchObject({ firstName: 'Per', lastName: 'Olof Berg', lang: 'en' });
    expect(await item('accounts', { accountId: ids.accountId })).toMatchObject({
      name: 'Per Olof Berg',
      contactPerson: 'Per Berg',
      companyPhone: '+4631123456',
      phone: '+46701234567',
    });
  });
});

describe('validate-email rate limit', () => {
  it(`allows ${VALIDATE_EMAIL_LIMIT} lookups per client in a window, then answers 429 with retry-after`, async () => {
    // A window of its own: a fixed clock far from the real one, so earlier lookups do not count.
    const clock = getPorts().clock;
    overridePorts({ clock: { now: () => new Date('2031-06-01T12:00:00Z') } });
    try {
      for (let i = 0; i < VALIDATE_EMAIL_LIMIT; i++) {
        expect((await get('/api/v1/validate-email', { email: `free${i}@example.com` })).status).toBe(200);
      }
      const res = await get('/api/v1/validate-email', { email: 'one-more@example.com' });
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ success: false, message: 'TooManyRequests' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      overridePorts({ clock });
    }
  });

  it('does not count against another window', async () => {
    const res = await get('/api/v1/validate-email', { email: 'later@example.com' });
    expect(res.status).toBe(200);
  });
});

describe('inventory provisioned later', () => {
  it('registers an IMEI added to the inventory after start', async () => {
    const imei = imeiFrom('35000000123456');
    await dynamo().send(new PutCommand({ TableName: tableName('inventory'), Item: { imei, registered: false, provisionedAt: new Date().toISOString() } }));
    expect((await get('/api/v1/validate-imei', { imei })).status).toBe(200);
    const res = await post('/api/v1/register-account', wizardPrivate(imei, 'late@example.com'));
    expect(res.status).toBe(201);
  });
});
