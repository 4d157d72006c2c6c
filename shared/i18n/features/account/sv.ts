import type { AccountMessages } from './en';

/** Swedish texts of the account feature: exactly the English keys (the type checks it). */
export const accountSv: AccountMessages = {
  // Forgot and reset password
  ForgotPasswordIntro: 'Ange e-postadressen till ditt konto så skickar vi en länk där du kan välja ett nytt lösenord.',
  EmailAddress: 'E-postadress',
  SendResetLink: 'Skicka återställningslänk',
  ResetPasswordIntro: 'Välj ett nytt lösenord för ditt konto.',
  PasswordRule: 'Minst 8 tecken, med en versal, en siffra och ett specialtecken.',
  RequestNewResetLink: 'Begär en ny länk',

  // Account deletion
  AccountDeletionIntro: 'Kontakta oss via e-post eller telefon för att avsluta ditt {{brand}}-konto och säga upp abonnemanget. Vi hjälper dig med resten.',
  ContactUs: 'Kontakta oss',
  NoContactAddress: 'Kontakta företaget som sålde din spårare för att avsluta ditt konto.',

  // Alert opt-out
  AlertOptOutIntro: 'Stoppa larmen vi skickar till dig. Bekräfta med ditt kontos användarnamn och lösenord.',
  StopPushToo: 'Stoppa även pushnotiser',
  StopPushTooHint: 'Notiserna i mobilappen upphör också.',
  StopAlerts: 'Stoppa larm',

  // Profile
  ProfileLoginName: 'Användarnamn: {{username}} · E-post: {{email}}',
  FirstName: 'Förnamn',
  LastName: 'Efternamn',
  PhoneCountry: 'Land',
  PhoneNumber: 'Mobilnummer',
  PhoneNumberHint: 'Som du känner det, med eller utan inledande 0.',
  MessageLanguage: 'Språk för e-post och meddelanden',
  MessageLanguageHint: 'Inloggningskoder, återställningslänkar och larm skickas på det här språket.',
  TwoFactorLogin: 'Tvåstegsinloggning',
  TwoFactorLoginHint: 'Efter lösenordet anger du en kod som vi mejlar till dig.',
  ProfileSaved: 'Din profil har sparats.',
  TwoFactorOffNeedsPassword: 'Ange ditt nuvarande lösenord för att stänga av tvåstegsinloggning.',
  LandingPage: 'Startsida efter inloggning',
  LandingPageHint: 'Sidan du ser först när du loggar in.',
  LandingPageDefault: 'Kartan (eller körjournalen utan karta)',
  LandingPageFleetOverview: 'Flottöversikt',
  InvalidLandingPage: 'Välj en startsida i listan.',
  LandingPageAdminsOnly: 'Bara administratörer kan starta på flottöversikten.',
};
