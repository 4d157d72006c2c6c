/**
 * Web Push in the embedded runtime (docs/decisions/0048-web-push.md): every push is recorded in the
 * outbox (GET /api/dev/outbox?kind=push&to=<subscription id>), and one to a loopback endpoint (a
 * test's push service) is really sent, encrypted and signed as on AWS. Other endpoints are not
 * called: the embedded runtime does not reach the internet's push services.
 *
 * The VAPID keys come from VAPID_SEED, which the runtime keeps in DATA_DIR (or in memory with
 * --ephemeral), so a restart keeps the browsers' subscriptions valid.
 */
import { isLoopbackEndpoint } from '../../../../shared/push-endpoint';
import type { WebPush, WebPushMessage } from '../../ports';
import { sendWebPush, vapidKeysFromSeed, type VapidKeys } from '../web-push';
import { writeOutbox } from './outbox';

export function createEmbeddedWebPush(config: { seed: string | undefined; subject: string; now: () => Date }): WebPush {
  let keys: VapidKeys | null = null;
  const vapidKeys = (): VapidKeys => {
    if (!config.seed) throw new Error('VAPID_SEED is not set: the embedded runtime gives its handlers one (infra/local/runtime.ts)');
    keys ??= vapidKeysFromSeed(config.seed);
    return keys;
  };
  return {
    publicKey: () => Promise.resolve(vapidKeys().publicKey),
    async send(message: WebPushMessage) {
      const vapid = vapidKeys();
      if (isLoopbackEndpoint(new URL(message.subscription.endpoint))) {
        const outcome = await sendWebPush(message, { ...vapid, subject: config.subject });
        if (outcome === 'gone') return outcome;
      }
      await writeOutbox(
        { kind: 'push', to: message.id, subject: message.payload.title, text: message.payload.body, data: { url: message.payload.url, tag: message.payload.tag, urgency: message.urgency } },
        config.now(),
      );
      return 'sent';
    },
  };
}
