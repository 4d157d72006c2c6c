import { describe, expect, it } from 'vitest';
import { addressAllowed, AWS_POLICY, checkEndpoint, EMBEDDED_POLICY, type Lookup } from './endpoint-policy';

const resolvesTo =
  (...addresses: string[]): Lookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const noLookup: Lookup = async () => {
  throw new Error('an IP literal needs no lookup');
};

describe('the AWS endpoint policy', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'the metadata service (link-local)'],
    ['::1', 'IPv6 loopback'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'the IPv6 metadata service'],
    ['100.64.0.1', 'CGNAT'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::ffff:10.0.0.1', 'a private address mapped into IPv6'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['fe80::1', 'IPv6 link-local'],
  ])('refuses %s (%s)', (address) => {
    expect(addressAllowed(address, AWS_POLICY)).toBe(false);
  });

  it('allows public unicast addresses', () => {
    expect(addressAllowed('93.184.216.34', AWS_POLICY)).toBe(true);
    expect(addressAllowed('2606:2800:220:1:248:1893:25c8:1946', AWS_POLICY)).toBe(true);
  });

  it('refuses IP literals in private ranges before any lookup', async () => {
    for (const url of ['https://10.0.0.5/hook', 'https://127.0.0.1/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/hook', 'https://[fc00::1]/hook', 'https://100.64.1.1/']) {
      expect(await checkEndpoint(url, AWS_POLICY, noLookup), url).toEqual({ refusal: 'WebhookUrlForbidden' });
    }
  });

  it('refuses a host name that resolves to a private address, or to a private one among public ones', async () => {
    expect(await checkEndpoint('https://hooks.example.com/in', AWS_POLICY, resolvesTo('10.0.0.7'))).toEqual({ refusal: 'WebhookUrlForbidden' });
    expect(await checkEndpoint('https://hooks.example.com/in', AWS_POLICY, resolvesTo('93.184.216.34', '169.254.169.254'))).toEqual({ refusal: 'WebhookUrlForbidden' });
  });

  it('refuses a host name that does not resolve', async () => {
    const fails: Lookup = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await checkEndpoint('https://nowhere.example/in', AWS_POLICY, fails)).toEqual({ refusal: 'WebhookUrlForbidden' });
  });

  it('accepts https to a public host and answers the address to connect to', async () => {
    const checked = await checkEndpoint('https://hooks.example.com/in?x=1', AWS_POLICY, resolvesTo('93.184.216.34'));
    expect(checked).toMatchObject({ target: { address: '93.184.216.34', family: 4 } });
  });

  it('refuses http, other schemes, credentials in the URL and an overlong URL', async () => {
    const lookup = resolvesTo('93.184.216.34');
    expect(await checkEndpoint('http://hooks.example.com/in', AWS_POLICY, lookup)).toEqual({ refusal: 'WebhookUrlInvalid' });
    expect(await checkEndpoint('http://127.0.0.1:8080/in', AWS_POLICY, lookup)).toEqual({ refusal: 'WebhookUrlInvalid' });
    expect(await checkEndpoint('ftp://hooks.example.com/in', AWS_POLICY, lookup)).toEqual({ refusal: 'WebhookUrlInvalid' });
    expect(await checkEndpoint('https://user:pw@hooks.example.com/in', AWS_POLICY, lookup)).toEqual({ refusal: 'WebhookUrlInvalid' });
    expect(await checkEndpoint(`https://hooks.example.com/${'a'.repeat(2000)}`, AWS_POLICY, lookup)).toEqual({ refusal: 'WebhookUrlTooLong' });
  });
});

describe('the embedded endpoint policy', () => {
  it('also allows http and https to loopback, and nothing else private', async () => {
    expect(await checkEndpoint('http://127.0.0.1:4000/hook', EMBEDDED_POLICY, noLookup)).toMatchObject({ target: { address: '127.0.0.1' } });
    expect(await checkEndpoint('https://[::1]:4000/hook', EMBEDDED_POLICY, noLookup)).toMatchObject({ target: { address: '::1', family: 6 } });
    expect(await checkEndpoint('http://10.0.0.1/hook', EMBEDDED_POLICY, noLookup)).toEqual({ refusal: 'WebhookUrlInvalid' });
    expect(await checkEndpoint('https://169.254.169.254/', EMBEDDED_POLICY, noLookup)).toEqual({ refusal: 'WebhookUrlForbidden' });
    expect(await checkEndpoint('http://hooks.example.com/in', EMBEDDED_POLICY, resolvesTo('127.0.0.1'))).toEqual({ refusal: 'WebhookUrlInvalid' });
  });
});
