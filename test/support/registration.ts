/** A valid wizard registration of a private Swedish customer (spec section 3), as the browser sends it. */
import type { RegisterAccountRequest } from '../../shared/schemas/registration';

export function wizardPrivate(imei: string, email: string, password: string, overrides: Partial<RegisterAccountRequest> = {}): RegisterAccountRequest {
  return {
    form: 'wizard',
    is_private_account: 1,
    countryCode: 'SE',
    Imei: imei,
    reseller: 'Bilia',
    comment: 'Bought in the shop',
    firstName: 'Anna',
    lastName: 'Svensson',
    userName: email,
    personal_org_number: '19850709-9805',
    address: 'Storgatan 1',
    zipCode: '123 45',
    city: 'Stockholm',
    country: 'Sverige',
    phone: '+46 70 123 45 67',
    countryDialCode: '46',
    userPassword: password,
    userPassword_confirmation: password,
    paymentType: 1,
    terms: true,
    subsiteID: 0,
    lang: 'sv',
    ...overrides,
  };
}
