import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, originOf } from './content-security-policy';

/** `directive -> sources` of a policy, to assert on one directive at a time. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );
}

const AMAZON_STYLE = 'https://maps.geo.eu-north-1.amazonaws.com/v2/styles/Standard/descriptor?key=v1.public.secretish';
const IOT = 'wss://abc123-ats.iot.eu-north-1.amazonaws.com';

describe('contentSecurityPolicy', () => {
  it('is the strict policy of the AWS deployment: Amazon Location and the IoT endpoint, nothing inline for scripts', () => {
    const policy = contentSecurityPolicy({ mapStyleUrl: AMAZON_STYLE, liveOrigin: IOT });
    expect(policy).toBe(
      [
        "default-src 'self'",
        "script-src 'self'",
        "worker-src 'self' blob:",
        "manifest-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob: https://maps.geo.eu-north-1.amazonaws.com",
        "font-src 'self'",
        `connect-src 'self' blob: https://maps.geo.eu-north-1.amazonaws.com ${IOT}`,
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
    // The maps API key is not a host: it never lands in the header.
    expect(policy).not.toContain('key=');
    const d = directives(policy);
    expect(d.get('script-src')).not.toContain("'unsafe-inline'");
    expect(d.get('script-src')).not.toContain("'unsafe-eval'");
  });

  it('embedded without a style: the offline map needs only self, the live channel is the runtime\'s own WebSocket', () => {
    const d = directives(contentSecurityPolicy({ mapStyleUrl: null, liveOrigin: 'ws://127.0.0.1:3000' }));
    expect(d.get('connect-src')).toEqual(["'self'", 'blob:', 'ws://127.0.0.1:3000']);
    expect(d.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('allows the style origin and the extra map origins once each, in img-src and connect-src', () => {
    const d = directives(
      contentSecurityPolicy({
        mapStyleUrl: 'https://tiles.example.com:8443/styles/basic.json',
        mapOrigins: ['https://tiles.example.com:8443', 'https://fonts.example.com/'],
        liveOrigin: 'ws://localhost:3000',
      }),
    );
    expect(d.get('connect-src')).toEqual(["'self'", 'blob:', 'https://tiles.example.com:8443', 'https://fonts.example.com', 'ws://localhost:3000']);
    expect(d.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://tiles.example.com:8443', 'https://fonts.example.com']);
  });

  it('keeps CDK tokens intact (the IoT endpoint is known at deploy time only)', () => {
    const token = '${Token[TOKEN.123]}';
    expect(directives(contentSecurityPolicy({ liveOrigin: `wss://${token}` })).get('connect-src')).toEqual(["'self'", 'blob:', `wss://${token}`]);
    expect(originOf(`https://maps.geo.${'${Token[AWS.Region.9]}'}.amazonaws.com/v2/styles/x/descriptor?key=${token}`)).toBe(
      `https://maps.geo.${'${Token[AWS.Region.9]}'}.amazonaws.com`,
    );
  });

  it('refuses anything that could end a source or a directive', () => {
    expect(() => contentSecurityPolicy({ liveOrigin: "wss://x; script-src 'unsafe-inline'" })).toThrow();
    expect(() => contentSecurityPolicy({ liveOrigin: 'wss://a.example/mqtt' })).toThrow(/no path/);
    expect(() => contentSecurityPolicy({ liveOrigin: 'ws://x', mapOrigins: ['https://a.example,https://b.example'] })).toThrow();
    expect(() => contentSecurityPolicy({ liveOrigin: 'ws://x', mapStyleUrl: 'javascript:alert(1)' })).toThrow();
    expect(() => contentSecurityPolicy({ liveOrigin: 'ws://x', mapStyleUrl: 'https://user@evil.example/style.json' })).toThrow();
  });
});
