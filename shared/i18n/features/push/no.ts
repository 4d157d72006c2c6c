import type { PushMessages } from './en';

/** Norwegian texts of Web Push to the installed app: exactly the English keys (the type checks it). */
export const pushNo: PushMessages = {
  InvalidPushEndpoint: 'Nettleseren oppga en push-adresse som ikke er en https-adresse.',
  PushEndpointNotAllowed: 'Push-varsler kan ikke sendes til denne adressen.',
  InvalidPushKey: 'Nettleseren oppga en push-nøkkel som ikke er gyldig.',
  InvalidPushAuth: 'Nettleseren oppga en push-hemmelighet som ikke er gyldig.',
  PushSubscriptionRequired: 'Oppgi hvilken enhet push-varslene skal slås av på.',
  PushSubscriptionNotFound: 'Denne enheten får ingen push-varsler.',
  TooManyPushSubscriptions: 'Du får allerede push-varsler på for mange enheter. Slå dem av på en enhet du ikke lenger bruker.',
  PushTitle: 'Alarmvarsler på denne enheten',
  PushIntro: 'Få alarmene dine som varsler på denne telefonen eller datamaskinen, også når portalen er lukket. En administrator velger hvilke alarmer som når deg.',
  PushEnable: 'Slå på varsler',
  PushDisable: 'Slå av varsler',
  PushEnabled: 'Denne enheten får alarmvarsler.',
  PushDisabled: 'Varsler er slått av på denne enheten.',
  PushUnsupported: 'Denne nettleseren kan ikke vise push-varsler. På en iPhone eller iPad legger du først portalen til på hjemskjermen og åpner den derfra.',
  PushDenied: 'Varsler er blokkert for portalen i denne nettleseren. Tillat dem i nettleserens nettstedsinnstillinger, og prøv igjen.',
  PushTurnedOn: 'Varsler er slått på for denne enheten.',
  PushTurnedOff: 'Varsler er slått av for denne enheten.',
  PushFailed: 'Varslene kunne ikke slås på. Prøv igjen om litt.',
};
