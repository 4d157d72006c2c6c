/**
 * The CloudFront Function that picks a brand's index.html: the module's logic directly, and the
 * generated function code run in a bare VM context the way CloudFront runs it (a script defining
 * `handler`, no module system, no Node globals).
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MAX_FUNCTION_CODE_BYTES, brandRouterCode } from '../../infra/brand-router-code';
import { brandForHost, brandIndexPath, hasFileExtension, routeViewerRequest, type ViewerRequestEvent } from '../../infra/brand-router';

const domains = { 'portal.alpha.se': 0, 'spara.beta.se': 3, 'track.gamma.no': 7 };

const event = (uri: string, host?: string): ViewerRequestEvent => ({
  request: { uri, headers: host === undefined ? {} : { host: { value: host } } },
});

describe('brandForHost', () => {
  it.each([
    ['spara.beta.se', 3],
    ['SPARA.BETA.SE', 3],
    ['spara.beta.se:443', 3],
    ['spara.beta.se.', 3],
    ['www.track.gamma.no', 7],
    ['portal.alpha.se', 0],
    ['unknown.example.com', 0],
    ['beta.se', 0],
    ['d111111abcdef8.cloudfront.net', 0],
    ['', 0],
  ])('%s -> brand %i', (host, brand) => {
    expect(brandForHost(host, domains)).toBe(brand);
  });

  it('gives brand 0 without a host and for values outside 0..7', () => {
    expect(brandForHost(undefined, domains)).toBe(0);
    expect(brandForHost('x.se', { 'x.se': 8 })).toBe(0);
    expect(brandForHost('x.se', { 'x.se': 1.5 })).toBe(0);
    expect(brandForHost('constructor', {})).toBe(0);
    expect(brandForHost('__proto__', {})).toBe(0);
  });
});

describe('hasFileExtension', () => {
  it.each([
    ['/assets/index-1a2b3c.js', true],
    ['/favicon.ico', true],
    ['/brands/3/index.html', true],
    ['/logos/brand-3.svg', true],
    ['/', false],
    ['/map', false],
    ['/units/356307042441013/history', false],
    ['/settings/', false],
    ['/.well-known', false],
  ])('%s: %s', (uri, expected) => {
    expect(hasFileExtension(uri)).toBe(expected);
  });
});

describe('routeViewerRequest', () => {
  it('serves page routes from the host brand index.html', () => {
    expect(routeViewerRequest(event('/', 'spara.beta.se'), domains).uri).toBe('/brands/3/index.html');
    expect(routeViewerRequest(event('/map/live', 'track.gamma.no'), domains).uri).toBe(brandIndexPath(7));
    expect(routeViewerRequest(event('/login', 'someone-else.se'), domains).uri).toBe('/brands/0/index.html');
    expect(routeViewerRequest(event('/login'), domains).uri).toBe('/brands/0/index.html');
  });

  it('passes file requests unchanged and keeps the rest of the request', () => {
    const e = event('/assets/app-9f8e.js', 'spara.beta.se');
    const out = routeViewerRequest(e, domains);
    expect(out).toBe(e.request);
    expect(out.uri).toBe('/assets/app-9f8e.js');
    expect(out.headers['host']).toEqual({ value: 'spara.beta.se' });
  });
});

describe('generated CloudFront Function code', () => {
  const run = (code: string, e: ViewerRequestEvent) => {
    const context = vm.createContext({ event: e });
    vm.runInContext(`${code}\nvar __result = handler(event);`, context);
    return (context as { __result: ViewerRequestEvent['request'] }).__result;
  };

  it('is a plain script defining handler, within the size limit', () => {
    const code = brandRouterCode(domains);
    expect(code).toMatch(/^function handler\(event\)/m);
    expect(code).not.toMatch(/^\s*(import|export)\b/m);
    expect(code).not.toMatch(/\brequire\(|\bprocess\.|\?\.|\?\?/);
    expect(Buffer.byteLength(code)).toBeLessThan(MAX_FUNCTION_CODE_BYTES);
  });

  it('behaves as the module does, with the brand table of the context baked in', () => {
    const code = brandRouterCode(domains);
    expect(run(code, event('/', 'spara.beta.se')).uri).toBe('/brands/3/index.html');
    expect(run(code, event('/trips', 'www.track.gamma.no:443')).uri).toBe('/brands/7/index.html');
    expect(run(code, event('/trips', 'other.se')).uri).toBe('/brands/0/index.html');
    expect(run(code, event('/assets/x.css', 'spara.beta.se')).uri).toBe('/assets/x.css');
  });

  it('routes everything to brand 0 with an empty brand table', () => {
    const code = brandRouterCode({});
    expect(run(code, event('/', 'spara.beta.se')).uri).toBe('/brands/0/index.html');
  });
});
