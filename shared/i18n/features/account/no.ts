import type { AccountMessages } from './en';

/** Norwegian texts of the account feature: exactly the English keys (the type checks it). */
export const accountNo: AccountMessages = {
  // Forgot and reset password
  ForgotPasswordIntro: 'Skriv inn e-postadressen til kontoen din, så sender vi deg en lenke der du kan velge et nytt passord.',
  EmailAddress: 'E-postadresse',
  SendResetLink: 'Send lenke for tilbakestilling',
  ResetPasswordIntro: 'Velg et nytt passord for kontoen din.',
  PasswordRule: 'Minst 8 tegn, med en stor bokstav, et siffer og et spesialtegn.',
  RequestNewResetLink: 'Be om en ny lenke',

  // Account deletion
  AccountDeletionIntro: 'For å slette {{brand}}-kontoen din og si opp abonnementet, kontakt oss på e-post eller telefon. Vi hjelper deg med resten.',
  ContactUs: 'Kontakt oss',
  NoContactAddress: 'Kontakt firmaet som solgte deg sporingsenheten for å slette kontoen din.',

  // Alert opt-out
  AlertOptOutIntro: 'Stopp alarmene vi sender deg. Bekreft med brukernavnet og passordet til kontoen din.',
  StopPushToo: 'Stopp også push-varsler',
  StopPushTooHint: 'Varslene i mobilappen stopper også.',
  StopAlerts: 'Stopp alarmer',

  // Profile
  ProfileLoginName: 'Brukernavn: {{username}} · E-post: {{email}}',
  FirstName: 'Fornavn',
  LastName: 'Etternavn',
  PhoneCountry: 'Land',
  PhoneNumber: 'Mobilnummer',
  PhoneNumberHint: 'Slik du kjenner det, med eller uten innledende 0.',
  MessageLanguage: 'Språk for e-post og meldinger',
  MessageLanguageHint: 'Innloggingskoder, lenker for tilbakestilling og alarmer sendes på dette språket.',
  TwoFactorLogin: 'Totrinnsinnlogging',
  TwoFactorLoginHint: 'Etter passordet skriver du inn en kode som vi sender deg på e-post.',
  ProfileSaved: 'Profilen din er lagret.',
  TwoFactorOffNeedsPassword: 'Skriv inn ditt nåværende passord for å slå av totrinnsinnlogging.',
  LandingPage: 'Startside etter innlogging',
  LandingPageHint: 'Siden du ser først når du logger inn.',
  LandingPageDefault: 'Kartet (eller kjørejournalen uten kart)',
  LandingPageFleetOverview: 'Flåteoversikt',
  InvalidLandingPage: 'Velg en startside fra listen.',
  LandingPageAdminsOnly: 'Bare administratorer kan starte på flåteoversikten.',
};
