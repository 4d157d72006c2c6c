/**
 * Push through OneSignal's REST API: the spec's receivers carry a OneSignal push id
 * ("OnesignalPushID"), which the current API calls a subscription id. Plain `fetch`, no SDK.
 */
import type { PushMessage, PushSender } from '../../ports';

export const ONESIGNAL_API_URL = 'https://api.onesignal.com';

export interface OneSignalConfig {
  appId?: string | undefined;
  /** The app's REST API key (sent as `Authorization: Key …`). */
  apiKey?: string | undefined;
  /** Tests point this at a local server. */
  baseUrl?: string;
  timeoutMs?: number;
}

export class PushNotConfiguredError extends Error {
  override name = 'PushNotConfiguredError';
  constructor() {
    super('push is not configured: set ONESIGNAL_APP_ID and ONESIGNAL_API_KEY to send push notifications');
  }
}

export class PushDeliveryError extends Error {
  override name = 'PushDeliveryError';
}

export function createOneSignalPush(config: OneSignalConfig): PushSender {
  const baseUrl = (config.baseUrl ?? ONESIGNAL_API_URL).replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? 10_000;
  return {
    async send(message: PushMessage) {
      const { appId, apiKey } = config;
      if (!appId || !apiKey) throw new PushNotConfiguredError();
      const body = {
        app_id: appId,
        target_channel: 'push',
        include_subscription_ids: [message.to],
        // The text arrives already translated; OneSignal requires the `en` entry as the default.
        headings: { en: message.title },
        contents: { en: message.text },
        ...(message.data ? { data: message.data } : {}),
      };
      const response = await fetch(`${baseUrl}/notifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Key ${apiKey}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) throw new PushDeliveryError(`OneSignal answered ${response.status}: ${text.slice(0, 500)}`);
      // A 200 can still carry errors, for example a subscription that no longer exists.
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        throw new PushDeliveryError(`OneSignal answered ${response.status} with a body that is not JSON`);
      }
      const errors = (answer as { errors?: unknown } | null)?.errors;
      const hasErrors = Array.isArray(errors) ? errors.length > 0 : errors !== undefined && errors !== null;
      if (hasErrors) throw new PushDeliveryError(`OneSignal did not deliver: ${JSON.stringify(errors).slice(0, 500)}`);
    },
  };
}
