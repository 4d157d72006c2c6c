/**
 * The embedded adapters: the outbox instead of SES, SNS and push; the offline gazetteer instead of
 * Amazon Location; the local broker instead of IoT Core; local users instead of Cognito.
 */
import type { EmbeddedEnv } from '../../env';
import type { Ports } from '../../ports';
import { alertQueueOver } from '../alert-queue';
import { systemClock } from '../system-clock';
import { createLocalDeviceGateway } from './devices';
import { createOfflineGeocoder } from './geocoder';
import { createLocalFileStore } from './file-store';
import { createLocalIdentity } from './identity';
import { createLocalLiveBus } from './live';
import { createOutboxMailer, createOutboxPush, createOutboxSms } from './outbox';
import { createLocalWorkQueues } from './work-queues';

export function createEmbeddedPorts(env: EmbeddedEnv): Ports {
  const now = systemClock.now;
  const queues = createLocalWorkQueues();
  return {
    mailer: createOutboxMailer(now),
    sms: createOutboxSms(now),
    push: createOutboxPush(now),
    geocoder: createOfflineGeocoder(),
    devices: createLocalDeviceGateway(),
    live: createLocalLiveBus(),
    alerts: alertQueueOver(queues),
    queues,
    identity: createLocalIdentity({ secret: env.JWT_SECRET, now }),
    files: createLocalFileStore({ secret: env.JWT_SECRET, dir: env.FILES_DIR ?? null, now }),
    clock: systemClock,
  };
}
