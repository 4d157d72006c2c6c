/**
 * Addresses as a socket reports them (`socket.remoteAddress`, API Gateway's `sourceIp`), read with
 * ipaddr.js, so that handlers and the embedded runtime agree on what "this machine" and "one
 * client" mean.
 */
import ipaddr from 'ipaddr.js';

/**
 * An address in its canonical form: an IPv4 address mapped into IPv6 (`::ffff:127.0.0.1`, a
 * dual-stack listener's view of an IPv4 client) as that IPv4 address. Only the strict four-part
 * dotted IPv4 form counts (ipaddr.js would also read `127.1` or `0x7f.1`, which no socket reports).
 * A zone id (`fe80::1%eth0`) names an interface, never loopback's, and is dropped.
 */
function parse(address: string | null | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!address) return null;
  const text = address.trim().replace(/%.*$/, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!ipaddr.IPv6.isValid(text)) return null;
  const v6 = ipaddr.IPv6.parse(text);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

/** True for this machine's own loopback: 127.0.0.0/8, ::1, and 127/8 mapped into IPv6. */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  return parse(address)?.range() === 'loopback';
}

/**
 * What a per-client rate limit counts for an address: an IPv4 address as is (also when mapped into
 * IPv6), and an IPv6 address by its /64 prefix (`2001:db8:0:1::/64`). One customer's connection
 * usually gets a whole /64 and picks addresses in it at will (privacy extensions), so counting full
 * IPv6 addresses would give every such client an unlimited supply of fresh keys. Null for anything
 * that is not an IP address.
 */
export function clientAddressKey(address: string | null | undefined): string | null {
  const ip = parse(address);
  if (!ip) return null;
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts;
  return `${parts
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
