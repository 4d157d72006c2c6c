/**
 * Which push endpoints the portal sends to (docs/decisions/0048-web-push.md). A browser's push
 * service is on the public internet over https; an endpoint is a URL the browser hands us, so a
 * deployment refuses one that points into its own network (loopback, private, link-local, unique
 * local or otherwise reserved addresses, and names such as `localhost`). The embedded runtime also
 * takes plain http on the loopback address, where tests run a push service of their own.
 */
import ipaddr from 'ipaddr.js';
import { pushMessageKeys } from './schemas/push';

/** True for an IP address on the public internet (ipaddr.js's `unicast` range, IPv4 mapped into IPv6 read as IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** The host of a URL without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** True for a loopback endpoint (127.0.0.0/8, ::1, `localhost`). */
export function isLoopbackEndpoint(url: URL): boolean {
  const host = bareHost(url);
  if (host === 'localhost') return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
}

/**
 * Null when the portal may send to this endpoint, else the message key that refuses it.
 * `allowLoopback`: the embedded runtime, which also takes http://127.0.0.1 and http://localhost.
 */
export function pushEndpointProblem(endpoint: string, options: { allowLoopback: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return pushMessageKeys.InvalidPushEndpoint;
  }
  if (url.username || url.password) return pushMessageKeys.InvalidPushEndpoint;
  const loopback = isLoopbackEndpoint(url);
  if (options.allowLoopback && loopback && (url.protocol === 'http:' || url.protocol === 'https:')) return null;
  if (url.protocol !== 'https:') return pushMessageKeys.InvalidPushEndpoint;
  if (loopback) return pushMessageKeys.PushEndpointNotAllowed;
  const host = bareHost(url);
  if (ipaddr.isValid(host)) return isPublicAddress(host) ? null : pushMessageKeys.PushEndpointNotAllowed;
  // A name without a dot is resolved in the deployment's own network.
  if (!host.includes('.') || LOCAL_NAMES.test(host)) return pushMessageKeys.PushEndpointNotAllowed;
  return null;
}
