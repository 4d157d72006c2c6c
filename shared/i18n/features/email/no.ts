import type { EmailMessages } from './en';

/** Norwegian texts of the email feature: exactly the English keys (the type checks it). */
export const emailNo: EmailMessages = {
  EmailTwoFactorSubject: 'Innloggingskoden din for {{brand}}',
  EmailTwoFactorHeading: 'Innloggingskoden din',
  EmailTwoFactorIntro: 'Bruk denne koden for å fullføre innloggingen på {{brand}}:',
  EmailTwoFactorValidity: 'Koden er gyldig i {{minutes}} minutter og kan bare brukes én gang.',
  EmailTwoFactorIgnore: 'Hvis det ikke var du som prøvde å logge inn, kan noen kjenne passordet ditt. Bytt det så snart som mulig.',
  EmailResetSubject: 'Tilbakestill passordet ditt for {{brand}}',
  EmailResetHeading: 'Tilbakestill passordet ditt',
  EmailResetIntro: 'Vi har mottatt en forespørsel om å tilbakestille passordet til kontoen din på {{brand}}. Velg et nytt passord med knappen nedenfor.',
  EmailResetAction: 'Velg et nytt passord',
  EmailResetValidity: 'Lenken er gyldig i {{minutes}} minutter og kan bare brukes én gang.',
  EmailResetIgnore: 'Hvis du ikke har bedt om dette, kan du se bort fra denne e-posten: passordet ditt forblir uendret.',
  EmailWelcomeSubject: 'Velkommen til {{brand}}',
  EmailWelcomeHeading: 'Velkommen, {{firstName}}!',
  EmailWelcomeIntro: 'Kontoen din på {{brand}} er klar. Logg inn med brukernavnet {{username}} og passordet du valgte.',
  EmailWelcomeAction: 'Logg inn',
  EmailLinkFallback: 'Hvis knappen ikke fungerer, kan du kopiere denne adressen inn i nettleseren:',
  EmailAttestReminderSubject: 'Attester kjørejournalen din for {{month}} ({{brand}})',
  EmailAttestReminderHeading: 'På tide å attestere {{month}}',
  EmailAttestReminderGreeting: 'Hei {{firstName}},',
  EmailAttestReminderIntro: 'Kjørejournalen din for {{month}} er ikke attestert ennå. Gå gjennom turene dine, fyll inn formålene og attester perioden.',
  EmailAttestReminderAction: 'Åpne kjørejournalen',
  EmailAttestReminderFooter: 'Denne e-posten ble sendt av {{brand}} på forespørsel fra administratoren din.',
  EmailFooter: 'Denne e-posten ble sendt av {{brand}}. Ikke svar på den.',
};
