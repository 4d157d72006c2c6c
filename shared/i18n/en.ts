/**
 * English texts: the source language. Keys are flat; many are the message keys the API returns
 * (API.md: "the server answers with message keys, the browser translates them"), so some contain
 * dots or spaces ('Unauthenticated.'). Interpolation uses {{name}}.
 *
 * sv.ts and no.ts are typed as `Messages`, so a key missing there (or an extra one) fails the type
 * check, and test/i18n/resources.test.ts fails on empty texts or mismatched variables.
 */
export const en = {
  // Application shell
  Loading: 'Loading…',
  SkipToContent: 'Skip to main content',
  Language: 'Language',
  LogOut: 'Log out',
  Support: 'Support',
  SupportMailLabel: 'E-mail support at {{email}}',
  OpenMenu: 'Open menu',
  CloseMenu: 'Close menu',
  MainNavigation: 'Main navigation',
  Administration: 'Administration',
  Announcement: 'Announcement',
  DismissAnnouncement: 'Dismiss announcement',
  ChangePasswordFor: 'Change password for {{name}}',
  TryAgain: 'Try again',
  GoToStartPage: 'Go to the start page',
  BackToLogin: 'Back to login',
  AllRightsReserved: '© {{year}} {{brand}}',

  // Pages that later work fills
  NotYetAvailableTitle: 'Coming soon',
  NotYetAvailable: 'This part of the portal is not available yet.',
  PageNotFoundTitle: 'Page not found',
  PageNotFound: 'The page you are looking for is unavailable. Check that the address is correct.',
  NoAccessTitle: 'No access',

  // Page titles and menu items
  Map: 'Map',
  Triplog: 'Triplog',
  Log: 'Log',
  CongestionReport: 'Congestion tax report',
  Geofence: 'Geofences',
  AddEditGeofence: 'Add or edit geofence',
  Places: 'Places',
  AddEditPlace: 'Add or edit place',
  Unit: 'Units',
  EditUnit: 'Edit unit',
  CarSchedule: 'Car booking',
  Account: 'Users and account',
  AddUnit: 'Add unit',
  SafeReturnHome: 'Safe return home',
  AlarmReceiver: 'Alarm receivers',
  ManageRFIDCards: 'RFID cards',
  AlertNumbers: 'Alert numbers',
  Alerts: 'Alerts',
  Register: 'Register',
  ForgotPasswordTitle: 'Forgot password',
  ResetPasswordTitle: 'Reset password',
  AccountDeletionTitle: 'Delete account',
  AlertOptOutTitle: 'Stop alerts',

  // Login
  Login: 'Log in',
  LoginHeading: 'Log in to {{brand}}',
  UsernameOrEmail: 'Username or e-mail',
  Password: 'Password',
  ShowPassword: 'Show password',
  RememberMe: 'Remember me',
  ForgotPassword: 'Forgot your password?',
  NoAccountYet: 'No account yet?',
  RegisterLink: 'Register here',
  OtherSiteBanner: 'Do you have an account on our new portal?',
  OtherSiteLink: 'Log in on the new portal',
  YouCanNowLogin: 'Your account is registered. You can now log in.',
  PasswordResetLink: 'We have sent you an e-mail with a link to reset your password. The link is valid for 1 hour.',
  PasswordChanged: 'Your password has been changed. You can now log in with your new password.',
  SpecifyUsername: 'Enter your username or e-mail.',
  SpecifyPassword: 'Enter your password.',
  InvalidCredentials: 'Invalid username and/or password. Attempts left: {{count}}.',
  InvalidAccess: 'This account cannot log in on this site.',
  LoginUnavailable: 'Logging in is not available right now. Please try again later.',
  TwoFactorNotAvailable: 'This account uses two-factor login, which is not available in this portal yet.',

  // Set-new-password modal
  SetNewPassword: 'Set a new password',
  NewPassword: 'New password',
  ConfirmNewPassword: 'Confirm new password',
  Save: 'Save',
  Cancel: 'Cancel',
  SpecifyNewPassword: 'Enter a new password.',
  PasswordNotMatch: 'The passwords do not match.',
  PasswordMustInclude: 'The password must have at least 8 characters, with an upper-case letter, a digit and a special character.',
  'User updated successfully.': 'Your password has been updated.',

  // Message keys the API answers with
  'Unauthenticated.': 'Your session has ended. Please log in again.',
  ValidationFailed: 'Some of the information is not valid. Check it and try again.',
  FieldRequired: 'This field is required.',
  InvalidType: 'The value has the wrong type.',
  TooShort: 'The value is too short.',
  TooLong: 'The value is too long.',
  InvalidFormat: 'The value is not in a valid format.',
  InvalidValue: 'The value is not valid.',
  UnknownField: 'The request contained a field that is not allowed.',
  InvalidJson: 'The request could not be read.',
  UnsupportedContentType: 'The request was sent in a format that is not supported.',
  InvalidTimeZone: 'The time zone of your browser is not recognised.',
  InvalidSubsite: 'Unknown site.',
  Forbidden: 'You do not have permission to do this.',
  NoAccessToAdministratorPages: 'You do not have access to administrator pages.',
  NoAccessToSupportPages: 'You do not have access to support pages.',
  NotFound: 'What you asked for could not be found.',
  Conflict: 'This was changed at the same time by someone else. Reload and try again.',
  TooManyAttempts: 'Too many failed attempts. Try again in 1 hour.',
  SomethingWentWrong: 'Something went wrong. Try again, and contact support if the problem persists.',
  NetworkError: 'Could not reach the server. Check your internet connection and try again.',
} as const;

export type MessageKey = keyof typeof en;
/** The shape every language must have: exactly the English keys. */
export type Messages = { readonly [K in MessageKey]: string };
