/** English texts of the account feature (merged into the flat key space; see shared/i18n/index.ts). */
export const accountEn = {
  // Forgot and reset password
  ForgotPasswordIntro: 'Enter the e-mail address of your account and we will send you a link to choose a new password.',
  EmailAddress: 'E-mail address',
  SendResetLink: 'Send reset link',
  ResetPasswordIntro: 'Choose a new password for your account.',
  PasswordRule: 'At least 8 characters, with an upper-case letter, a digit and a special character.',
  RequestNewResetLink: 'Request a new link',

  // Account deletion
  AccountDeletionIntro: 'To delete your {{brand}} account and cancel your subscription, contact us by e-mail or phone. We will help you with the rest.',
  ContactUs: 'Contact us',
  NoContactAddress: 'Contact the company that sold you your tracker to delete your account.',

  // Alert opt-out
  AlertOptOutIntro: 'Stop the alerts we send you. Confirm with the username and password of your account.',
  StopPushToo: 'Also stop push notifications',
  StopPushTooHint: 'Notifications in the phone app stop as well.',
  StopAlerts: 'Stop alerts',

  // Profile
  ProfileLoginName: 'Username: {{username}} · E-mail: {{email}}',
  FirstName: 'First name',
  LastName: 'Last name',
  PhoneCountry: 'Country',
  PhoneNumber: 'Mobile number',
  PhoneNumberHint: 'As you know it, with or without the leading 0.',
  MessageLanguage: 'Language of e-mails and messages',
  MessageLanguageHint: 'Login codes, reset links and alerts are sent in this language.',
  TwoFactorLogin: 'Two-factor login',
  TwoFactorLoginHint: 'After your password, enter a code we e-mail to you.',
  ProfileSaved: 'Your profile has been saved.',
  TwoFactorOffNeedsPassword: 'Enter your current password to turn two-factor login off.',
  LandingPage: 'Start page after login',
  LandingPageHint: 'The page you see first when you log in.',
  LandingPageDefault: 'The map (or the trip log without a map)',
  LandingPageFleetOverview: 'Fleet overview',
  InvalidLandingPage: 'Choose a start page from the list.',
  LandingPageAdminsOnly: 'Only administrators can start on the fleet overview.',
} as const;

export type AccountMessages = { readonly [K in keyof typeof accountEn]: string };
