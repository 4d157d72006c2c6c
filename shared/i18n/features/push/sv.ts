import type { PushMessages } from './en';

/** Swedish texts of Web Push to the installed app: exactly the English keys (the type checks it). */
export const pushSv: PushMessages = {
  InvalidPushEndpoint: 'Webbläsaren gav en pushadress som inte är en https-adress.',
  PushEndpointNotAllowed: 'Pushnotiser kan inte skickas till den här adressen.',
  InvalidPushKey: 'Webbläsaren gav en pushnyckel som inte är giltig.',
  InvalidPushAuth: 'Webbläsaren gav en pushhemlighet som inte är giltig.',
  PushSubscriptionRequired: 'Ange vilken enhet pushnotiserna ska stängas av på.',
  PushSubscriptionNotFound: 'Den här enheten får inga pushnotiser.',
  TooManyPushSubscriptions: 'Du får redan pushnotiser på för många enheter. Stäng av dem på en enhet du inte längre använder.',
  PushTitle: 'Larmnotiser på den här enheten',
  PushIntro: 'Få dina larm som notiser på den här telefonen eller datorn, även när portalen är stängd. En administratör väljer vilka larm som når dig.',
  PushEnable: 'Slå på notiser',
  PushDisable: 'Stäng av notiser',
  PushEnabled: 'Den här enheten får larmnotiser.',
  PushDisabled: 'Notiser är avstängda på den här enheten.',
  PushUnsupported: 'Den här webbläsaren kan inte visa pushnotiser. På en iPhone eller iPad lägger du först till portalen på hemskärmen och öppnar den därifrån.',
  PushDenied: 'Notiser är blockerade för portalen i den här webbläsaren. Tillåt dem i webbläsarens webbplatsinställningar och försök igen.',
  PushTurnedOn: 'Notiser är påslagna för den här enheten.',
  PushTurnedOff: 'Notiser är avstängda för den här enheten.',
  PushFailed: 'Notiserna kunde inte slås på. Försök igen om en stund.',
};
