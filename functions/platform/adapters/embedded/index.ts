/**
 * The embedded adapters: the outbox instead of SES, SNS, push and Autoplan; the offline gazetteer instead of
 * Amazon Location; the local broker instead of IoT Core; local users instead of Cognito.
 */
import type { EmbeddedEnv } from '../../env';
import type { Ports } from '../../ports';
import { alertQueueOver } from '../alert-queue';
import { systemClock } from '../system-clock';
import { createLocalDeviceGateway } from './devices';
import { createOfflineGeocoder } from './geocoder';
import { createLocalFileStore } from './file-store';
import { REPORT_EXPORT_KEEP_DAYS, REPORT_FILES_PREFIX } from '../../../../shared/schemas/report-exports';
import { createLocalIdentity } from './identity';
import { createLocalLiveBus } from './live';
import { createOutboxAutoplan, createOutboxMailer, createOutboxPush, createOutboxSms } from './outbox';
import { createLocalWorkQueues } from './work-queues';
import { createEmbeddedWebPush } from './web-push';
import { mailtoSubject } from '../web-push';

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
    // The files bucket's lifecycle rule for report exports (infra/constructs/unit-images-bucket.ts).
    files: createLocalFileStore({ secret: env.JWT_SECRET, dir: env.FILES_DIR ?? null, now, lifecycle: [{ prefix: REPORT_FILES_PREFIX, days: REPORT_EXPORT_KEEP_DAYS }] }),
    clock: systemClock,
    autoplan: createOutboxAutoplan(now),
    webPush: createEmbeddedWebPush({ seed: env.VAPID_SEED, subject: mailtoSubject(env.MAIL_FROM), now }),
  };
}
