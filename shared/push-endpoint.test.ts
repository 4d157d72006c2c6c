import { describe, expect, it } from 'vitest';
import { isPublicAddress, pushEndpointProblem } from './push-endpoint';

const aws = (url: string) => pushEndpointProblem(url, { allowLoopback: false });
const embedded = (url: string) => pushEndpointProblem(url, { allowLoopback: true });

describe('pushEndpointProblem', () => {
  it("takes the browsers' push services over https", () => {
    for (const url of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGx',
      'https://wns2-par02p.notify.windows.com/w/?token=x',
      'https://[2001:4860:4860::8888]/push',
      'https://8.8.8.8/push',
    ]) {
      expect(aws(url), url).toBeNull();
    }
  });

  it('refuses what is not https, or carries credentials', () => {
    expect(aws('http://fcm.googleapis.com/fcm/send/x')).toBe('InvalidPushEndpoint');
    expect(aws('ftp://fcm.googleapis.com/x')).toBe('InvalidPushEndpoint');
    expect(aws('not a url')).toBe('InvalidPushEndpoint');
    expect(aws('https://user:pw@fcm.googleapis.com/x')).toBe('InvalidPushEndpoint');
  });

  it('refuses loopback, private, link-local and local names on AWS', () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://localhost:8443/x',
      'https://api.localhost/x',
      'https://10.0.0.5/x',
      'https://172.16.3.4/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://0.0.0.0/x',
      'https://metadata/x',
      'https://db.internal/x',
      'https://printer.local/x',
    ]) {
      expect(aws(url), url).toBe('PushEndpointNotAllowed');
    }
  });

  it('takes plain http on the loopback address in the embedded runtime only', () => {
    expect(embedded('http://127.0.0.1:4000/push/a')).toBeNull();
    expect(embedded('http://localhost:4000/push/a')).toBeNull();
    expect(embedded('http://[::1]:4000/push/a')).toBeNull();
    expect(aws('http://127.0.0.1:4000/push/a')).toBe('InvalidPushEndpoint');
    expect(embedded('http://192.168.1.1/push')).toBe('InvalidPushEndpoint');
    expect(embedded('https://10.0.0.5/x')).toBe('PushEndpointNotAllowed');
  });
});

describe('isPublicAddress', () => {
  it('is true for unicast internet addresses only', () => {
    expect(isPublicAddress('142.250.74.42')).toBe(true);
    expect(isPublicAddress('2a00:1450:400f:80d::200a')).toBe(true);
    expect(isPublicAddress('10.1.2.3')).toBe(false);
    expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false);
    expect(isPublicAddress('100.64.0.1')).toBe(false);
    expect(isPublicAddress('not-an-ip')).toBe(false);
  });
});
