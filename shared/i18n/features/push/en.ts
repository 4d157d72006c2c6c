/** English texts of Web Push to the installed app (shared/schemas/push.ts, web/src/features/push); merged into the flat key space (shared/i18n/index.ts). */
export const pushEn = {
  InvalidPushEndpoint: 'The browser gave a push address that is not an https address.',
  PushEndpointNotAllowed: 'Push notifications cannot be sent to this address.',
  InvalidPushKey: 'The browser gave a push key that is not valid.',
  InvalidPushAuth: 'The browser gave a push secret that is not valid.',
  PushSubscriptionRequired: 'Say which device to stop push notifications on.',
  PushSubscriptionNotFound: 'This device does not get push notifications.',
  TooManyPushSubscriptions: 'You get push notifications on too many devices already. Turn them off on one you no longer use.',
  PushTitle: 'Alarm notifications on this device',
  PushIntro: 'Get your alarms as notifications on this phone or computer, also when the portal is closed. An administrator chooses which alarms reach you.',
  PushEnable: 'Turn on notifications',
  PushDisable: 'Turn off notifications',
  PushEnabled: 'This device gets alarm notifications.',
  PushDisabled: 'Notifications are off on this device.',
  PushUnsupported: 'This browser cannot show push notifications. On an iPhone or iPad, add the portal to the home screen first and open it from there.',
  PushDenied: 'Notifications are blocked for the portal in this browser. Allow them in the browser\'s site settings, then try again.',
  PushTurnedOn: 'Notifications are on for this device.',
  PushTurnedOff: 'Notifications are off for this device.',
  PushFailed: 'Notifications could not be turned on. Try again in a while.',
} as const;

export type PushMessages = { readonly [K in keyof typeof pushEn]: string };
