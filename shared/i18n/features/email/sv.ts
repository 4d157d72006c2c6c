import type { EmailMessages } from './en';

/** Swedish texts of the email feature: exactly the English keys (the type checks it). */
export const emailSv: EmailMessages = {
  EmailTwoFactorSubject: 'Din inloggningskod för {{brand}}',
  EmailTwoFactorHeading: 'Din inloggningskod',
  EmailTwoFactorIntro: 'Använd den här koden för att slutföra inloggningen på {{brand}}:',
  EmailTwoFactorValidity: 'Koden gäller i {{minutes}} minuter och kan bara användas en gång.',
  EmailTwoFactorIgnore: 'Om det inte var du som försökte logga in kan någon känna till ditt lösenord. Byt det så snart som möjligt.',
  EmailResetSubject: 'Återställ ditt lösenord för {{brand}}',
  EmailResetHeading: 'Återställ ditt lösenord',
  EmailResetIntro: 'Vi har fått en begäran om att återställa lösenordet till ditt konto på {{brand}}. Välj ett nytt lösenord med knappen nedan.',
  EmailResetAction: 'Välj ett nytt lösenord',
  EmailResetValidity: 'Länken gäller i {{minutes}} minuter och kan bara användas en gång.',
  EmailResetIgnore: 'Om du inte har bett om detta kan du bortse från det här meddelandet: ditt lösenord förblir oförändrat.',
  EmailWelcomeSubject: 'Välkommen till {{brand}}',
  EmailWelcomeHeading: 'Välkommen, {{firstName}}!',
  EmailWelcomeIntro: 'Ditt konto på {{brand}} är klart. Logga in med användarnamnet {{username}} och lösenordet du valde.',
  EmailWelcomeAction: 'Logga in',
  EmailLinkFallback: 'Om knappen inte fungerar kan du kopiera den här adressen till webbläsaren:',
  EmailAttestReminderSubject: 'Attestera din körjournal för {{month}} ({{brand}})',
  EmailAttestReminderHeading: 'Dags att attestera {{month}}',
  EmailAttestReminderGreeting: 'Hej {{firstName}},',
  EmailAttestReminderIntro: 'Din körjournal för {{month}} är inte attesterad ännu. Gå igenom dina resor, fyll i syftena och attestera perioden.',
  EmailAttestReminderAction: 'Öppna körjournalen',
  EmailAttestReminderFooter: 'Det här e-postmeddelandet skickades av {{brand}} på begäran av din administratör.',
  EmailFooter: 'Det här meddelandet skickades av {{brand}}. Svara inte på det.',
};
