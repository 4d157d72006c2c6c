/**
 * The ports handlers depend on. Each has an AWS adapter and an embedded adapter
 * (functions/platform/adapters/{aws,embedded}); `getPorts()` picks one set per cold start.
 */
import type { Language } from '../../shared/schemas/common';
import type { LiveAudience } from '../../shared/mqtt-topics';
import type { QueueName } from '../../shared/queues';
import type { Writable } from 'node:stream';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}
export interface Mailer {
  send(message: EmailMessage): Promise<void>;
}

export interface SmsMessage {
  /** E.164, for example +46701234567. */
  to: string;
  text: string;
  /** The sender shown to the receiver (an account's alert sender number or name); the deployment's default when absent. */
  senderId?: string;
}
export interface SmsSender {
  /** Refuses (throws) a `to` that is not E.164: a number in another form would be read by the provider's own guess. */
  send(message: SmsMessage): Promise<void>;
}

const E164 = /^\+[1-9]\d{6,14}$/;
/** The check every SMS adapter makes before sending. */
export function assertE164(to: string): void {
  if (!E164.test(to)) throw new Error(`An SMS goes to an E.164 number, not to '${to}'.`);
}

export interface PushMessage {
  /** The receiver's push id. */
  to: string;
  title: string;
  text: string;
  data?: Record<string, string>;
}
export interface PushSender {
  send(message: PushMessage): Promise<void>;
}

/** A browser's Web Push subscription (its keys base64url, as `PushSubscription.toJSON()` gives them). */
export interface WebPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}
/** One notification to one subscribed browser (docs/decisions/0048-web-push.md). */
export interface WebPushMessage {
  /** The subscription's id: the outbox's recipient in the embedded runtime. */
  id: string;
  subscription: WebPushSubscription;
  /** Encrypted for the browser (aes128gcm) and read by the service worker. */
  payload: { title: string; body: string; url: string; tag: string };
  /** How long the push service keeps it for a browser that is offline. */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
}
/** 'gone': the push service answered 404 or 410, so the subscription no longer exists. */
export type WebPushOutcome = 'sent' | 'gone';
/**
 * Web Push with the deployment's VAPID keys (from Secrets Manager on AWS, from DATA_DIR or memory
 * in the embedded runtime). `send` throws when the push service failed otherwise (retry later).
 */
export interface WebPush {
  /** The VAPID public key, base64url (the browser's `applicationServerKey`). */
  publicKey(): Promise<string>;
  send(message: WebPushMessage): Promise<WebPushOutcome>;
}

export interface Address {
  label: string;
  street?: string;
  postalCode?: string;
  locality?: string;
  country?: string;
  lat: number;
  lon: number;
}
export interface Geocoder {
  /** The nearest known address or place for a coordinate, or null when nothing is near. */
  reverse(lat: number, lon: number, lang: Language): Promise<Address | null>;
  /** Addresses matching free text, best first. */
  search(text: string, lang: Language, near?: { lat: number; lon: number }): Promise<Address[]>;
}

export interface DeviceCommand {
  id: string;
  type: string;
  params: Record<string, unknown>;
}
export interface DeviceGateway {
  /** Sends a command to a tracker in its own protocol (topic and payload per tracker family). */
  send(imei: string, command: DeviceCommand, protocol: 'native' | 'teltonika'): Promise<void>;
}

export interface LiveMessage {
  type: 'position' | 'event' | 'command' | 'access';
  [field: string]: unknown;
}
export interface LiveBus {
  /** One message about a unit, to its account's admins and to each ordinary user granted it (shared/mqtt-topics.ts). */
  publish(audience: LiveAudience, message: LiveMessage): Promise<void>;
}

/** An alarm to deliver: the event's key in the events table (functions/events/deliver-alert.ts). */
export interface AlertJob {
  imei: string;
  sk: string;
}
/**
 * The alarm delivery queue: the `alert-delivery` work queue of shared/queues.ts, which the
 * `alert-delivery` consumer reads (functions/events/alert-delivery.ts).
 */
export interface AlertQueue {
  enqueue(job: AlertJob): Promise<void>;
}

/**
 * The work queues of shared/queues.ts: SQS on AWS (QUEUE_URLS), the embedded runtime's in-process
 * queues (infra/local/queues.ts). A message is a JSON value; its consumer may get it more than once.
 */
export interface SendOptions {
  /** Seconds before the message can be received: SQS DelaySeconds, rounded up and at most 900; the embedded queue holds it as long. */
  delaySeconds?: number;
}
export interface WorkQueues {
  send(queue: QueueName, message: unknown, options?: SendOptions): Promise<void>;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
}
export interface Principal {
  userId: string;
  /** The login session the token belongs to; logout ends it. */
  sessionId: string;
}
export interface NewIdentity {
  userId: string;
  username: string;
  email: string;
  password: string;
}
export interface Authenticated {
  userId: string;
  sessionId: string;
  tokens: Tokens;
}
/**
 * Users and their passwords. Tokens are issued when the password is right; the handlers decide
 * whether to hand them out (lockout, wrong brand and 2FA are ours, not the provider's), and a token
 * is honoured only while our session record for its sessionId exists.
 */
export interface IdentityProvider {
  createUser(identity: NewIdentity): Promise<void>;
  /** Null when the username is unknown or the password wrong. */
  authenticate(username: string, password: string): Promise<Authenticated | null>;
  refresh(refreshToken: string, username: string): Promise<Tokens>;
  verifyAccessToken(token: string): Promise<Principal | null>;
  /** Revokes a refresh token (logout of one browser). */
  revoke(refreshToken: string): Promise<void>;
  setPassword(username: string, password: string): Promise<void>;
  /**
   * Revokes every refresh token of the user issued until now (a password change or reset ends
   * every session). Tokens issued afterwards are not affected.
   */
  signOutEverywhere(username: string): Promise<void>;
  deleteUser(username: string): Promise<void>;
}

/** Where the browser sends a file's bytes: one request with exactly the declared bytes. */
export interface FileUploadTarget {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}
/** A stored file's size and its first bytes. */
export interface StoredFileHead {
  size: number;
  head: Uint8Array;
}
/**
 * A file being written as a stream (a report export): its bytes go to `stream`, and `done` settles
 * once the file is stored, or rejects when it is not. A stream destroyed with an error (or ended by
 * a failing writer) stores nothing: no half-written file is ever seen under the key.
 */
export interface FileWrite {
  stream: Writable;
  done: Promise<void>;
}
/** How a viewed file is answered: shown in the browser, or saved under this name. */
export interface ViewOptions {
  downloadName?: string;
}
/**
 * Files the browser uploads and views directly (unit pictures) and files the functions write
 * (report exports): a private S3 bucket with presigned URLs on AWS, files under DATA_DIR (or in
 * memory) behind signed routes of the embedded runtime. Keys are ours (`pending/...`, `units/...`,
 * `reports/...`), never a user's file name.
 */
export interface FileStore {
  /** A target that accepts exactly `size` bytes of `contentType` for `key` until `expiresInSeconds` pass. */
  createUpload(key: string, contentType: string, size: number, expiresInSeconds: number): Promise<FileUploadTarget>;
  /** The file's size and first `length` bytes, or null when there is no such file. */
  readHead(key: string, length: number): Promise<StoredFileHead | null>;
  /** Moves a file to another key, to be served as `contentType`. */
  move(from: string, to: string, contentType: string): Promise<void>;
  /** A URL that shows the file as `contentType` (or has it saved as `downloadName`) for `expiresInSeconds`. */
  viewUrl(key: string, contentType: string, expiresInSeconds: number, options?: ViewOptions): Promise<string>;
  /** Writes a file of `contentType` at `key` from a stream, replacing any file there once complete. */
  writeStream(key: string, contentType: string): FileWrite;
  /** Removes the file; a missing file is no error. */
  delete(key: string): Promise<void>;
}

export interface Clock {
  now(): Date;
}

/** One vehicle's month as Autoplan takes it (shared/schemas/autoplan.ts figures; km, 3 decimals). */
export interface AutoplanSubmission {
  accountId: string;
  imei: string;
  /** yyyy-MM. */
  month: string;
  registrationNumber: string;
  odometerStart: number | null;
  odometerEnd: number | null;
  trips: number;
  distanceKm: number;
  businessKm: number;
  privateKm: number;
  otherKm: number;
  /** The same for every attempt of one vehicle and month: Autoplan can tell a repeat from a new report. */
  idempotencyKey: string;
}
/** What Autoplan made of a report (spec section 8): taken, or one of its refusals. */
export type AutoplanOutcome =
  | { status: 'accepted'; reference: string | null }
  | { status: 'noLicencePlateMatch' }
  | { status: 'serviceCar' };

/** Autoplan did not answer (network, time-out, its server failing): the report may be sent again. */
export class AutoplanNoResponseError extends Error {
  override name = 'AutoplanNoResponseError';
}
/** Autoplan answered something that is neither an acceptance nor one of its known refusals. */
export class AutoplanRejectedError extends Error {
  override name = 'AutoplanRejectedError';
}
/** The account has no Autoplan connection (no endpoint and credentials stored for it). */
export class AutoplanNotConfiguredError extends Error {
  override name = 'AutoplanNotConfiguredError';
}

/**
 * Autoplan mileage reporting: over HTTPS with the account's endpoint and credentials from Secrets
 * Manager on AWS, into the outbox in the embedded runtime. Throws the errors above.
 */
export interface Autoplan {
  report(submission: AutoplanSubmission): Promise<AutoplanOutcome>;
}

export interface Ports {
  mailer: Mailer;
  sms: SmsSender;
  push: PushSender;
  geocoder: Geocoder;
  devices: DeviceGateway;
  live: LiveBus;
  alerts: AlertQueue;
  queues: WorkQueues;
  identity: IdentityProvider;
  files: FileStore;
  clock: Clock;
  autoplan: Autoplan;
  webPush: WebPush;
}
