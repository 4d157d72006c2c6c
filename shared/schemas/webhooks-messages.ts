/**
 * Message keys of webhooks (docs/api.md Webhooks): the server answers with these keys and the
 * browser translates them (shared/i18n/features/webhooks holds each in en, sv and no).
 */
export const webhookMessageKeys = {
  WebhookUrlRequired: 'WebhookUrlRequired',
  WebhookUrlTooLong: 'WebhookUrlTooLong',
  /** Not an absolute URL, credentials in it, or a scheme other than https (http only to loopback, embedded). */
  WebhookUrlInvalid: 'WebhookUrlInvalid',
  /** The host is, or resolves to, an address the portal does not send to (private, loopback, link-local, ...). */
  WebhookUrlForbidden: 'WebhookUrlForbidden',
  WebhookEventsRequired: 'WebhookEventsRequired',
  WebhookEventInvalid: 'WebhookEventInvalid',
  WebhookLimitReached: 'WebhookLimitReached',
  WebhookNotFound: 'WebhookNotFound',
  WebhookSaved: 'WebhookSaved',
  WebhookDeleted: 'WebhookDeleted',
  WebhookTestQueued: 'WebhookTestQueued',
} as const;
