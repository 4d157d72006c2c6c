import type { WizardStep } from '../wizard-flow';

/** Short name of each step (dot bar, review) and the question its heading asks. */
export const stepNameKey = {
  welcome: 'StepWelcome',
  country: 'StepCountry',
  imei: 'StepImei',
  reseller: 'StepReseller',
  companyName: 'StepCompanyName',
  name: 'StepName',
  email: 'StepEmail',
  personalNumber: 'StepPersonalNumber',
  orgNumber: 'StepOrgNumber',
  address: 'StepAddress',
  phone: 'StepPhone',
  password: 'StepPassword',
  review: 'StepReview',
} as const satisfies Record<WizardStep, string>;

export const stepQuestionKey = {
  welcome: 'WelcomeQuestion',
  country: 'CountryQuestion',
  imei: 'ImeiQuestion',
  reseller: 'ResellerQuestion',
  companyName: 'CompanyNameQuestion',
  name: 'NameQuestion',
  email: 'EmailQuestion',
  personalNumber: 'PersonalNumberQuestion',
  orgNumber: 'OrgNumberQuestion',
  address: 'AddressQuestion',
  phone: 'PhoneQuestion',
  password: 'PasswordQuestion',
  review: 'ReviewQuestion',
} as const satisfies Record<WizardStep, string>;
