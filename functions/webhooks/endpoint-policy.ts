/**
 * Where webhooks may be sent (docs/decisions/0046-webhooks.md, "SSRF"). An endpoint is checked
 * when it is subscribed and again before every attempt, after DNS: every address the host resolves
 * to must be a public unicast address, and the connection then goes to the address that was
 * checked (send.ts pins it), so a DNS answer that changes between the check and the connection
 * (rebinding) cannot point a delivery at the portal's own network.
 *
 * On AWS only https to public addresses is allowed. The embedded runtime (RUNTIME=embedded, which
 * the stack never sets) also allows http and https to a loopback address, for receivers on the
 * same machine; private, link-local and every other range stay refused there too.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_URL_MAX } from '../../shared/schemas/webhooks';
import { webhookMessageKeys as keys } from '../../shared/schemas/webhooks-messages';

export interface EndpointPolicy {
  /** http and https to 127.0.0.0/8 and ::1: the embedded runtime's local receivers only. */
  readonly allowLoopback: boolean;
}

export const AWS_POLICY: EndpointPolicy = { allowLoopback: false };
export const EMBEDDED_POLICY: EndpointPolicy = { allowLoopback: true };

export function policyFor(runtime: 'aws' | 'embedded'): EndpointPolicy {
  return runtime === 'embedded' ? EMBEDDED_POLICY : AWS_POLICY;
}

export type EndpointRefusal = typeof keys.WebhookUrlInvalid | typeof keys.WebhookUrlTooLong | typeof keys.WebhookUrlForbidden;

/** What an address is: only `public` may be sent to on AWS; `loopback` also embedded. */
export function addressClass(address: string): 'public' | 'loopback' | 'refused' {
  if (!ipaddr.isValid(address)) return 'refused';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return 'public';
  if (range === 'loopback') return 'loopback';
  // private, linkLocal (169.254.169.254, the metadata service), uniqueLocal (fd00:ec2::254),
  // carrierGradeNat, multicast, unspecified, broadcast, reserved, 6to4, teredo, rfc6052 (NAT64), ...
  return 'refused';
}

export function addressAllowed(address: string, policy: EndpointPolicy): boolean {
  const kind = addressClass(address);
  return kind === 'public' || (kind === 'loopback' && policy.allowLoopback);
}

/** The URL's own shape: absolute, no credentials, https (http only where loopback is allowed, and then only to a loopback address). */
export function checkUrlShape(raw: string, policy: EndpointPolicy): { url: URL } | { refusal: EndpointRefusal } {
  if (raw.length > WEBHOOK_URL_MAX) return { refusal: keys.WebhookUrlTooLong };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refusal: keys.WebhookUrlInvalid };
  }
  if (url.username || url.password) return { refusal: keys.WebhookUrlInvalid };
  if (url.protocol === 'https:') return { url };
  if (url.protocol === 'http:' && policy.allowLoopback) {
    const host = hostOf(url);
    if (host === 'localhost' || (ipaddr.isValid(host) && addressClass(host) === 'loopback')) return { url };
  }
  return { refusal: keys.WebhookUrlInvalid };
}

/** The host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type Lookup = (host: string) => Promise<ResolvedAddress[]>;

export const systemLookup: Lookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * The address to connect to: the host's own when it is an IP literal, else the first the host
 * resolves to, provided that every address it resolves to is allowed (a host answering both a
 * public and a private address is refused). A host that does not resolve is refused as forbidden.
 */
export async function resolveEndpoint(url: URL, policy: EndpointPolicy, lookup: Lookup = systemLookup): Promise<{ target: ResolvedAddress } | { refusal: EndpointRefusal }> {
  const host = hostOf(url);
  if (ipaddr.isValid(host) && (ipaddr.IPv4.isValidFourPartDecimal(host) || host.includes(':'))) {
    return addressAllowed(host, policy) ? { target: { address: host, family: host.includes(':') ? 6 : 4 } } : { refusal: keys.WebhookUrlForbidden };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch {
    return { refusal: keys.WebhookUrlForbidden };
  }
  if (!addresses.length || !addresses.every((a) => addressAllowed(a.address, policy))) return { refusal: keys.WebhookUrlForbidden };
  return { target: addresses[0]! };
}

/** Shape and addresses together: what subscribing checks, and each attempt again. */
export async function checkEndpoint(raw: string, policy: EndpointPolicy, lookup: Lookup = systemLookup): Promise<{ url: URL; target: ResolvedAddress } | { refusal: EndpointRefusal }> {
  const shape = checkUrlShape(raw, policy);
  if ('refusal' in shape) return shape;
  const resolved = await resolveEndpoint(shape.url, policy, lookup);
  if ('refusal' in resolved) return resolved;
  return { url: shape.url, target: resolved.target };
}
