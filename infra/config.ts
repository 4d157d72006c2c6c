/**
 * The deployment settings, read once from CDK context (cdk.json defaults, `-c key=value` on the
 * command line) and checked before any construct uses them: a typo in a brand domain or the
 * sender address fails the synth with the list of problems instead of a broken deployment.
 */
import type { Node } from 'constructs';
import { ALERT_SENDER_PATTERN } from '../shared/schemas/alarms';
import type { BrandDomains } from './brand-router';

export const MAX_BRAND = 7;
export const DEFAULT_REGION = 'eu-north-1';

export interface PortalConfig {
  /** `dev`, `test`, `prod`...: part of the stack name, so stages sit side by side in one account. */
  readonly stage: string;
  /** Host name -> brand (subsite) 0..7; a host not listed gets brand 0. */
  readonly brandDomains: BrandDomains;
  /** Sender of every e-mail, `no-reply@example.se` or `Brand <no-reply@example.se>`. */
  readonly mailFrom: string;
  /** Amazon Location (geo-maps v2) map style the web app asks for, e.g. `Standard`. */
  readonly mapStyle: string;
  /**
   * The street map from the stack's own basemap bucket (a Protomaps archive behind CloudFront's
   * `/basemap/*`, uploaded by the operator: docs/operations.md), with Amazon Location for satellite
   * imagery only. Street tiles then cost CloudFront's bytes instead of Amazon Location's price per
   * tile. `false`: Amazon Location for both, nothing to upload.
   */
  readonly selfHostedBasemap: boolean;
  /**
   * ACM certificate (us-east-1) covering every brand domain. Without it the distribution answers
   * only on its cloudfront.net name and brandDomains just maps hosts for a later switch-over.
   */
  readonly certificateArn?: string;
  /** Public origin used in e-mailed links; default the distribution's https address. */
  readonly appUrl?: string;
  /** Create and verify the SES domain identity of mailFrom (false when it exists already). */
  readonly createMailIdentity: boolean;
  /**
   * E-mail addresses subscribed to the alarm topic (each confirms the subscription mail once):
   * a JSON array, or the addresses separated by commas, `-c alarmEmails=ops@example.se,oncall@example.se`.
   */
  readonly alarmEmails: readonly string[];
  /** The month's SMS spend (USD, SNS SMSMonthToDateSpentUSD) at which the SMS spend alarm goes off. */
  readonly smsSpendAlarmUsd: number;
  /**
   * The SMS sender of accounts that name none on the alert numbers page: a sender id (3 to 11
   * letters and digits) or an origination number (E.164), registered in AWS End User Messaging SMS
   * where the destination country asks for it (docs/operations.md, step 7). Unset, SNS picks one.
   */
  readonly smsSenderId?: string;
  /**
   * Per-route metrics of the HTTP API (the dashboard's p90 graph per route). CloudWatch bills them
   * as custom metrics, for each route that is called in an hour (docs/operations.md), so they are
   * off unless asked for: the dashboard's latency per route reads the access log either way.
   */
  readonly apiRouteMetrics: boolean;
}

export const DEFAULT_CONFIG: PortalConfig = {
  stage: 'dev',
  brandDomains: {},
  mailFrom: 'no-reply@example.com',
  mapStyle: 'Standard',
  selfHostedBasemap: true,
  createMailIdentity: true,
  alarmEmails: [],
  smsSpendAlarmUsd: 100,
  apiRouteMetrics: false,
};

/** `TrackingPortal` for prod, `TrackingPortal-<stage>` for the others. */
export function stackNameFor(stage: string): string {
  return stage === 'prod' ? 'TrackingPortal' : `TrackingPortal-${stage}`;
}

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const STAGE = /^[a-z][a-z0-9]{0,11}$/;
const EMAIL = /^[^\s@<>]+@([^\s@<>]+)$/;
const MAP_STYLE = /^[A-Za-z]+$/;
const CERT_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The bare address of `Name <address>` or `address`. */
export function mailAddress(mailFrom: string): string {
  const angle = /<([^>]+)>\s*$/.exec(mailFrom);
  return (angle?.[1] ?? mailFrom).trim();
}

/** The domain SES must have verified to send as mailFrom. */
export function mailDomain(mailFrom: string): string {
  const m = EMAIL.exec(mailAddress(mailFrom));
  if (!m?.[1]) throw new ConfigError(`mailFrom is not an e-mail address: ${JSON.stringify(mailFrom)}`);
  return m[1].toLowerCase();
}

function parseJsonish(name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new ConfigError(`context ${name} must be JSON, got ${JSON.stringify(value)}`);
  }
}

function parseBool(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigError(`expected true or false, got ${JSON.stringify(value)}`);
}

/** Checks raw context values; the values not given take DEFAULT_CONFIG's. */
export function parseConfig(raw: Readonly<Record<string, unknown>>): PortalConfig {
  const problems: string[] = [];
  const str = (key: string, fallback: string): string => {
    const v = raw[key];
    if (v === undefined || v === null || v === '') return fallback;
    if (typeof v !== 'string') {
      problems.push(`${key}: expected a string`);
      return fallback;
    }
    return v.trim();
  };

  const stage = str('stage', DEFAULT_CONFIG.stage);
  if (!STAGE.test(stage)) problems.push(`stage: lower-case letters and digits, at most 12, got ${JSON.stringify(stage)}`);

  const mailFrom = str('mailFrom', DEFAULT_CONFIG.mailFrom);
  try {
    mailDomain(mailFrom);
  } catch (e) {
    problems.push((e as Error).message);
  }

  const mapStyle = str('mapStyle', DEFAULT_CONFIG.mapStyle);
  if (!MAP_STYLE.test(mapStyle)) problems.push(`mapStyle: a style name such as Standard, got ${JSON.stringify(mapStyle)}`);

  const brandDomains: Record<string, number> = {};
  let domains: unknown = {};
  try {
    domains = parseJsonish('brandDomains', raw['brandDomains'] ?? {});
  } catch (e) {
    problems.push((e as Error).message);
  }
  if (typeof domains !== 'object' || domains === null || Array.isArray(domains)) {
    problems.push('brandDomains: expected an object of host name -> brand 0..7');
  } else {
    for (const [host, brand] of Object.entries(domains)) {
      const name = host.toLowerCase();
      if (!HOST.test(name)) problems.push(`brandDomains: ${JSON.stringify(host)} is not a host name`);
      else if (typeof brand !== 'number' || !Number.isInteger(brand) || brand < 0 || brand > MAX_BRAND) {
        problems.push(`brandDomains: ${host} must map to a brand 0..${MAX_BRAND}, got ${JSON.stringify(brand)}`);
      } else brandDomains[name] = brand;
    }
  }

  const certificateArn = str('certificateArn', '');
  if (certificateArn && !CERT_ARN.test(certificateArn)) {
    problems.push('certificateArn: an ACM certificate ARN in us-east-1 (CloudFront requires that region)');
  }
  if (certificateArn && Object.keys(brandDomains).length === 0) {
    problems.push('certificateArn is set but brandDomains is empty: the certificate would cover no alias');
  }

  const appUrl = str('appUrl', '');
  if (appUrl && !/^https:\/\/[^/\s]+$/.test(appUrl)) problems.push('appUrl: an https origin without path, e.g. https://portal.example.se');

  let createMailIdentity = DEFAULT_CONFIG.createMailIdentity;
  try {
    createMailIdentity = parseBool(raw['createMailIdentity'], DEFAULT_CONFIG.createMailIdentity);
  } catch (e) {
    problems.push(`createMailIdentity: ${(e as Error).message}`);
  }

  const alarmEmails: string[] = [];
  let emails: unknown = raw['alarmEmails'] ?? [];
  if (typeof emails === 'string') {
    const text = emails.trim();
    if (text.startsWith('[')) {
      try {
        emails = parseJsonish('alarmEmails', text);
      } catch (e) {
        problems.push((e as Error).message);
        emails = [];
      }
    } else emails = text ? text.split(',') : [];
  }
  if (!Array.isArray(emails)) problems.push('alarmEmails: a list of e-mail addresses (JSON array or comma-separated)');
  else {
    for (const entry of emails as unknown[]) {
      const address = typeof entry === 'string' ? entry.trim() : '';
      if (!EMAIL.test(address)) problems.push(`alarmEmails: ${JSON.stringify(entry)} is not an e-mail address`);
      else if (!alarmEmails.includes(address)) alarmEmails.push(address);
    }
  }

  const smsRaw = raw['smsSpendAlarmUsd'];
  const smsSpendAlarmUsd = smsRaw === undefined || smsRaw === null || smsRaw === '' ? DEFAULT_CONFIG.smsSpendAlarmUsd : Number(smsRaw);
  if (!Number.isFinite(smsSpendAlarmUsd) || smsSpendAlarmUsd <= 0) problems.push(`smsSpendAlarmUsd: a positive amount in USD, got ${JSON.stringify(smsRaw)}`);

  const smsSenderId = str('smsSenderId', '');
  if (smsSenderId && !ALERT_SENDER_PATTERN.test(smsSenderId)) {
    problems.push(`smsSenderId: a sender id of 3 to 11 letters and digits with a letter and no spaces, or an E.164 number, got ${JSON.stringify(smsSenderId)}`);
  }

  let selfHostedBasemap = DEFAULT_CONFIG.selfHostedBasemap;
  try {
    selfHostedBasemap = parseBool(raw['selfHostedBasemap'], DEFAULT_CONFIG.selfHostedBasemap);
  } catch (e) {
    problems.push(`selfHostedBasemap: ${(e as Error).message}`);
  }

  let apiRouteMetrics = DEFAULT_CONFIG.apiRouteMetrics;
  try {
    apiRouteMetrics = parseBool(raw['apiRouteMetrics'], DEFAULT_CONFIG.apiRouteMetrics);
  } catch (e) {
    problems.push(`apiRouteMetrics: ${(e as Error).message}`);
  }

  if (problems.length) throw new ConfigError(`Invalid CDK context:\n  ${problems.join('\n  ')}`);
  return {
    stage,
    brandDomains,
    mailFrom,
    mapStyle,
    selfHostedBasemap,
    createMailIdentity,
    alarmEmails,
    smsSpendAlarmUsd,
    apiRouteMetrics,
    ...(certificateArn ? { certificateArn } : {}),
    ...(appUrl ? { appUrl } : {}),
    ...(smsSenderId ? { smsSenderId } : {}),
  };
}

const KEYS = ['stage', 'brandDomains', 'mailFrom', 'mapStyle', 'selfHostedBasemap', 'certificateArn', 'appUrl', 'createMailIdentity', 'alarmEmails', 'smsSpendAlarmUsd', 'smsSenderId', 'apiRouteMetrics'] as const;

export function readConfig(node: Node): PortalConfig {
  const raw: Record<string, unknown> = {};
  for (const key of KEYS) raw[key] = node.tryGetContext(key) as unknown;
  return parseConfig(raw);
}
