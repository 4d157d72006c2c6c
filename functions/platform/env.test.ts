import { describe, expect, it } from 'vitest';
import { parseEnv } from '../platform/env';

const base = { RUNTIME: 'embedded', TABLE_PREFIX: 't-', APP_URL: 'http://localhost:3000', DYNAMODB_ENDPOINT: 'http://localhost:8000', DYNAMODB_ACCESS_KEY_ID: 'TESTKEY', JWT_SECRET: 'x'.repeat(32) };

describe('MAP_STYLE_URL', () => {
  it('is optional and, when set, must be a URL', () => {
    expect(parseEnv(base).MAP_STYLE_URL).toBeUndefined();
    const url = 'https://maps.geo.eu-north-1.amazonaws.com/v2/styles/Standard/descriptor?key=v1.public.abc';
    expect(parseEnv({ ...base, MAP_STYLE_URL: url }).MAP_STYLE_URL).toBe(url);
    expect(() => parseEnv({ ...base, MAP_STYLE_URL: 'not a url' })).toThrow(/MAP_STYLE_URL/);
  });
});

describe('BASEMAP_URL', () => {
  it('is optional and, when set, a root-relative path to a .pmtiles archive on the web app origin', () => {
    expect(parseEnv(base).BASEMAP_URL).toBeUndefined();
    expect(parseEnv({ ...base, BASEMAP_URL: '/basemap/basemap.pmtiles' }).BASEMAP_URL).toBe('/basemap/basemap.pmtiles');
    for (const bad of ['https://elsewhere.example/basemap.pmtiles', 'basemap/basemap.pmtiles', '/basemap/style.json', '/basemap/a b.pmtiles']) {
      expect(() => parseEnv({ ...base, BASEMAP_URL: bad }), bad).toThrow(/BASEMAP_URL/);
    }
  });
});
