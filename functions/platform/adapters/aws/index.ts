/**
 * The AWS adapters, wired once per cold start. SDK clients are created here so every port of one
 * Lambda instance shares them (and their connection pools).
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GeoPlacesClient } from '@aws-sdk/client-geo-places';
import { IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import type { AwsEnv } from '../../env';
import type { Ports } from '../../ports';
import { alertQueueOver } from '../alert-queue';
import { systemClock } from '../system-clock';
import { createHttpsAutoplan } from './autoplan';
import { createS3FileStore } from './file-store';
import { createLocationGeocoder } from './geocoder';
import { createIotDeviceGateway } from './devices';
import { createCognitoIdentity } from './identity';
import { createIotLiveBus } from './live';
import { createSesMailer } from './mailer';
import { createOneSignalPush } from './push';
import { createSnsSmsSender } from './sms';
import { createSqsWorkQueues } from './work-queues';
import { createSecretsManagerWebPush } from './web-push';

/**
 * Push is optional (a deployment without a OneSignal app still works; sending a push then fails
 * with a clear error), so its settings are read here rather than in the required env schema.
 */
const pushEnvSchema = z.object({
  ONESIGNAL_APP_ID: z.string().trim().min(1).optional().catch(undefined),
  ONESIGNAL_API_KEY: z.string().trim().min(1).optional().catch(undefined),
});

export function iotDataEndpoint(host: string): string {
  return /^https?:\/\//.test(host) ? host : `https://${host}`;
}

export function createAwsPorts(env: AwsEnv): Ports {
  const region = env.AWS_REGION;
  const iot = new IoTDataPlaneClient({ region, endpoint: iotDataEndpoint(env.IOT_DATA_ENDPOINT) });
  const push = pushEnvSchema.parse(process.env);
  const queues = createSqsWorkQueues(new SQSClient({ region }), env.QUEUE_URLS);
  const secrets = new SecretsManagerClient({ region });
  return {
    mailer: createSesMailer(new SESv2Client({ region }), env.MAIL_FROM),
    sms: createSnsSmsSender(new SNSClient({ region }), env.SMS_SENDER_ID),
    push: createOneSignalPush({ appId: push.ONESIGNAL_APP_ID, apiKey: push.ONESIGNAL_API_KEY }),
    geocoder: createLocationGeocoder(new GeoPlacesClient({ region })),
    devices: createIotDeviceGateway(iot),
    live: createIotLiveBus(iot),
    alerts: alertQueueOver(queues),
    queues,
    identity: createCognitoIdentity({
      client: new CognitoIdentityProviderClient({ region }),
      userPoolId: env.USER_POOL_ID,
      clientId: env.USER_POOL_CLIENT_ID,
    }),
    // No flexible checksums: they would be signed into presigned upload URLs (adapters/aws/file-store.ts).
    files: createS3FileStore(new S3Client({ region, requestChecksumCalculation: 'WHEN_REQUIRED' }), env.FILES_BUCKET),
    clock: systemClock,
    // Each account's endpoint and credentials are its own secret under the prefix the stack grants.
    autoplan: createHttpsAutoplan({ client: secrets, secretPrefix: env.AUTOPLAN_SECRET_PREFIX }),
    // The VAPID keys' seed secret the stack created, for the functions that declare webPush.
    webPush: createSecretsManagerWebPush({ client: secrets, secretId: env.VAPID_SECRET_ARN, subject: env.VAPID_SUBJECT ?? env.APP_URL }),
  };
}
