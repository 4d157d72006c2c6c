/**
 * English texts of the email feature: what the server sends (2FA code, reset link, welcome), never
 * shown in the browser. Rendered by functions/platform/email/templates.ts; every {{value}} is
 * HTML-escaped there.
 */
export const emailEn = {
  EmailTwoFactorSubject: 'Your login code for {{brand}}',
  EmailTwoFactorHeading: 'Your login code',
  EmailTwoFactorIntro: 'Use this code to finish logging in to {{brand}}:',
  EmailTwoFactorValidity: 'The code is valid for {{minutes}} minutes and can be used once.',
  EmailTwoFactorIgnore: 'If you did not try to log in, someone may know your password. Change it as soon as possible.',
  EmailResetSubject: 'Reset your password for {{brand}}',
  EmailResetHeading: 'Reset your password',
  EmailResetIntro: 'We received a request to reset the password of your {{brand}} account. Choose a new password with the button below.',
  EmailResetAction: 'Choose a new password',
  EmailResetValidity: 'The link is valid for {{minutes}} minutes and can be used once.',
  EmailResetIgnore: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  EmailWelcomeSubject: 'Welcome to {{brand}}',
  EmailWelcomeHeading: 'Welcome, {{firstName}}!',
  EmailWelcomeIntro: 'Your {{brand}} account is ready. Log in with your username {{username}} and the password you chose.',
  EmailWelcomeAction: 'Log in',
  EmailLinkFallback: 'If the button does not work, copy this address into your browser:',
  EmailAttestReminderSubject: 'Please attest your trip log for {{month}} ({{brand}})',
  EmailAttestReminderHeading: 'Time to attest {{month}}',
  EmailAttestReminderGreeting: 'Hello {{firstName}},',
  EmailAttestReminderIntro: 'Your trip log for {{month}} has not been attested yet. Check your trips, complete their purposes and attest the period.',
  EmailAttestReminderAction: 'Open the trip log',
  EmailAttestReminderFooter: "This e-mail was sent by {{brand}} at your administrator's request.",
  EmailInviteSubject: 'Your {{brand}} account is ready',
  EmailInviteHeading: 'Welcome, {{firstName}}!',
  EmailInviteIntro: 'Your administrator has created a {{brand}} account for you. Your username is {{username}}. Choose your password with the button below, then log in.',
  EmailInviteAction: 'Choose your password',
  EmailInviteValidity: 'The link is valid for {{days}} days and can be used once. Your administrator can send a new one.',
  EmailInviteIgnore: 'If you did not expect this e-mail, you can ignore it.',
  EmailReportReadySubject: '{{report}} {{period}} ({{brand}})',
  EmailReportReadyHeading: 'Your report is ready',
  EmailReportReadyIntro: 'The scheduled report {{report}} for {{period}} is ready. Log in to {{brand}} with the account that made the schedule to download it. It is kept for 30 days.',
  EmailReportReadyAction: 'Download the report',
  EmailReportReadyFooter: 'You get this e-mail because a report schedule in {{brand}} names you as a recipient. Please do not reply to it.',
  EmailFooter: 'This e-mail was sent by {{brand}}. Please do not reply to it.',
  EmailAutoplanSubject: 'Autoplan report for {{month}} ({{brand}})',
  EmailAutoplanHeading: 'Kilometres reported to Autoplan for {{month}}',
  EmailAutoplanIntro: '{{reported}} of {{vehicles}} vehicles were reported to Autoplan for {{month}}:',
  EmailAutoplanAction: 'Open the trip log',
  EmailAutoplanFooter: 'You get this e-mail because your account reports to Autoplan automatically on the 1st of each month. An administrator can turn this off in the trip log.',
  AutoplanEmailLineReported: 'reported, {{distance}} km of which {{business}} km business and {{private}} km private',
} as const;

export type EmailMessages = { readonly [K in keyof typeof emailEn]: string };
