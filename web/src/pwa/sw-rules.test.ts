import { describe, expect, it } from 'vitest';
import { API_CACHE_PREFIX, API_READS, apiCacheName, tokenSubject } from './sw-rules';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const token = (payload: unknown) => `Bearer ${b64({ alg: 'HS256' })}.${b64(payload)}.signature`;

describe('API_READS', () => {
  it('keeps the reads My trips needs and nothing else of the API', () => {
    const kept = (path: string) => API_READS.some((pattern) => pattern.test(path));
    for (const path of ['/api/v1/user/settings', '/api/v1/user/units', '/api/v1/user/trips', '/api/v1/user/check-in/abc']) expect(kept(path), path).toBe(true);
    for (const path of ['/api/v1/user/trips/t1', '/api/v1/user/trips/attestations', '/api/v1/user/profile', '/api/v1/user/realtime/units', '/api/v1/token/refresh', '/api/dev/outbox'])
      expect(kept(path), path).toBe(false);
  });
});

describe('tokenSubject and apiCacheName', () => {
  it("names one cache per user from the token's subject, never the same for two users", async () => {
    expect(tokenSubject(token({ sub: 'user-1' }))).toBe('user-1');
    expect(tokenSubject(token({ sub: '' }))).toBeNull();
    expect(tokenSubject('Bearer not-a-jwt')).toBeNull();
    expect(tokenSubject(null)).toBeNull();
    const [a, b] = await Promise.all([apiCacheName('user-1'), apiCacheName('user-2')]);
    expect(a.startsWith(API_CACHE_PREFIX)).toBe(true);
    expect(a).not.toBe(b);
    expect(a).not.toContain('user-1');
    expect(await apiCacheName('user-1')).toBe(a);
  });
});
